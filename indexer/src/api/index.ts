// Ponder requires an HTTP entry point; the service's API reads the published views, so this one only adds SQL-over-HTTP
// for local debugging (Ponder's own /health, /ready and /status stay available).
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { client } from "ponder";

const app = new Hono();

app.use("/sql/*", client({ db, schema }));

export default app;
