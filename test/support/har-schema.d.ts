/** har-schema ships JSON Schemas (draft-06) of HAR 1.2, one per object, without types. */
declare module "har-schema" {
  const schemas: Readonly<Record<string, object>>;
  export default schemas;
}
