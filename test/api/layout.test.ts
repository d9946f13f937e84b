// The layers of api/src hold: ESLint (eslint.config.mjs) refuses a route that talks to the database and a domain
// module that sees HTTP, so a change cannot quietly undo the layout docs/architecture.md describes.
import path from "node:path";
import { expect } from "chai";
import { ESLint } from "eslint";

const ROOT = path.resolve(__dirname, "..", "..");

describe("layout: the lint rule on api/src's layers", function () {
  const eslint = new ESLint({ cwd: ROOT });

  /** The messages of no-restricted-imports for `code` as if it were the file at `file`. */
  async function restricted(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
  }

  describe("a route, middleware or view", function () {
    it("may not import knex, pg or the pool", async function () {
      for (const file of ["api/src/routes/example/router.ts", "api/src/middleware/example.ts", "api/src/pages/example.ts"]) {
        expect(await restricted(file, 'import knex from "knex";\nexport const db = knex;\n'), file).to.have.length(1);
        expect(await restricted(file, 'import { Pool } from "pg";\nexport const pool = Pool;\n'), file).to.have.length(1);
      }
      expect(await restricted("api/src/routes/example/router.ts", 'import type { Knex } from "../../db/knex";\nexport type Db = Knex;\n')).to.have.length(1);
    });

    it("may not import a repo, even for a type: it calls the area's service", async function () {
      const file = "api/src/routes/products/router.ts";
      expect(await restricted(file, 'import { findProductByUid } from "../../products/products.repo";\nexport const find = findProductByUid;\n')).to.have.length(1);
      expect(await restricted(file, 'import type { ProductRow } from "../../products/products.repo";\nexport type Row = ProductRow;\n')).to.have.length(1);
    });

    it("may import services, Koa and other HTTP modules", async function () {
      const code = [
        'import Router from "@koa/router";',
        'import type { Context } from "koa";',
        'import { registerProduct } from "../../products/service";',
        'import { validateParams } from "../../middleware/validate-params";',
        "export const parts = [Router, registerProduct, validateParams];",
        "export type Ctx = Context;",
        "",
      ].join("\n");
      expect(await restricted("api/src/routes/products/router.ts", code)).to.deep.equal([]);
    });
  });

  describe("a domain module", function () {
    it("may not import koa or @koa/router", async function () {
      expect(await restricted("api/src/products/service.ts", 'import type { Context } from "koa";\nexport type Ctx = Context;\n')).to.have.length(1);
      expect(await restricted("api/src/scans/example.ts", 'import Router from "@koa/router";\nexport const r = Router;\n')).to.have.length(1);
    });

    it("may not import anything under routes/ or middleware/", async function () {
      expect(await restricted("api/src/passports/example.ts", 'import { uidParam } from "../routes/dpp/schemas";\nexport const p = uidParam;\n')).to.have.length(1);
      expect(await restricted("api/src/brands/example.ts", 'import { requireBrand } from "../middleware/brand-auth";\nexport const r = requireBrand;\n')).to.have.length(1);
    });

    it("may import repos and other domain modules", async function () {
      const code = 'import { findProductByUid } from "./products.repo";\nimport { getBrand } from "../brands/service";\nexport const parts = [findProductByUid, getBrand];\n';
      expect(await restricted("api/src/products/example.ts", code)).to.deep.equal([]);
    });
  });

});
