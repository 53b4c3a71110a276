/** '12 / 200 characters': the text a field's counter shows (trailing spaces are not sent, so not counted). */
export function characterCount(value: string, max: number): { label: string; over: boolean } {
  const length = value.trim().length;
  return { label: `${length.toLocaleString('en-US')} / ${max.toLocaleString('en-US')} characters`, over: length > max };
}
