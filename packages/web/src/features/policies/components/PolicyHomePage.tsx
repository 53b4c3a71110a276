/** PLACEHOLDER (issue 7, being built): the policy app's entry page with the member's own tasks. */
export function PolicyHomePage() {
  return null;
}
