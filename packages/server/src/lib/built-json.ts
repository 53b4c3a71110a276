/**
 * The serializer of a large read whose service builds every object of its answer field by field, so that nothing
 * outside the contract can be in it: JSON.stringify instead of checking every row against the response schema once
 * more (the policy TOC's 5,000 rows, the compliance tree's 1,000 nodes: issue 31, bench/floor.ts). Each such route has
 * a test that its answer is exactly what its schema would let through (`expectExactly`, test/contract.ts).
 */
export const builtFieldByField = () => (data: unknown) => JSON.stringify(data);
