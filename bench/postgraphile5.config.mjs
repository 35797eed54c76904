// PostGraphile 5 for bench/compare.sh, which copies this file into its
// temporary directory (where postgraphile is installed) as
// graphile.config.mjs and runs the postgraphile CLI there. The Amber
// preset on the public schema of PG5_DATABASE_URL, with a pool of 10
// connections; no GraphiQL, no watch mode, no explain. Amber lets a list
// be filtered or ordered only by indexed columns (PgIndexBehaviorsPlugin);
// is_active has no index, so that plugin is off, as PostGraphile 4 ignored
// indexes by default: the boxes' condition is then the one the 4.14.1
// document and this service use.
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import { makePgService } from "postgraphile/adaptors/pg";

/** @type {GraphileConfig.Preset} */
export default {
  extends: [PostGraphileAmberPreset],
  disablePlugins: ["PgIndexBehaviorsPlugin"],
  pgServices: [
    makePgService({
      connectionString: process.env.PG5_DATABASE_URL,
      schemas: ["public"],
      poolConfig: { max: 10 },
    }),
  ],
  grafserv: {
    host: "127.0.0.1",
    port: Number(process.env.PG5_PORT),
    graphiql: false,
    watch: false,
  },
  grafast: { explain: false },
};
