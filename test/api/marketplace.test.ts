// RFQ matching (spec 4.3): the local reading of an RFQ and the ranking on the registry's seed data, then
// POST /api/marketplace/match over HTTP against the seeded stack, without an AI key and with a real
// OpenAI-compatible server on 127.0.0.1 that answers well, badly, with an error or too late.
import { expect } from "chai";
import fc from "fast-check";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { applyRequest, extractNeedsLocally, needsFromAi, type Needs } from "../../api/src/marketplace/needs";
import { MATCH_WEIGHTS, rankFactories } from "../../api/src/marketplace/ranking";
import { PRODUCT_TYPES } from "../../api/src/marketplace/vocabulary";
import { templateReason, templateSummary } from "../../api/src/marketplace/wording";
import { clientBucket, takeAiMatch } from "../../api/src/marketplace/ai-quota.repo";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { SEED, seedRegistry } from "../support/factory-registry";
import { createTestDatabase } from "../support/hooks";
import { sharedStack, type SeededStack } from "../support/shared-stack";

const seedById = new Map(SEED.map((f) => [f.factory_id, f]));


type ErrorEnvelope = { success: boolean; error: { code: string; request_id: string; details?: Array<{ field: string; problem: string }> } };
type OpenApiDoc = { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { required: string[] } }> }; responses: object }>> };

const needs = (partial: Partial<Needs>): Needs => ({ productTypes: [], certifications: [], preferredCertifications: [], countries: [], keywords: [], ...partial });
const ids = (ranking: { matches: Array<{ factory: { factoryId: number } }> }) => ranking.matches.map((m) => m.factory.factoryId);

describe("RFQ matching", () => {
  describe("local reading of an RFQ", () => {
    it("reads product, quantity, certification, countries and lead time from a typical RFQ", () => {
      const read = extractNeedsLocally("We need 5,000 organic cotton tees, GOTS certified, from Bangladesh or India, within 45 days.");
      expect(read).to.deep.include({ productTypes: ["t-shirt"], certifications: ["GOTS"], quantity: 5000, countries: ["BD", "IN"], maxLeadTimeDays: 45 });
      expect(read.keywords).to.include.members(["organic", "cotton"]);
    });

    it("maps synonyms onto the registry's product types, longest phrase first", () => {
      expect(extractNeedsLocally("selvedge denim jeans").productTypes).to.deep.equal(["denim", "jeans"]);
      expect(extractNeedsLocally("fleece hoodies for toddlers").productTypes).to.deep.equal(["knitwear", "kidswear"]);
      expect(extractNeedsLocally("white dress shirts").productTypes).to.deep.equal(["shirt"]);
      expect(extractNeedsLocally("pique polo shirts").productTypes).to.deep.equal(["polo"]);
      expect(extractNeedsLocally("bath towels and duvet covers").productTypes).to.deep.equal(["towel", "home-textile"]);
    });

    it("requires only certifications the buyer insists on", () => {
      expect(extractNeedsLocally("organic cotton tees").certifications).to.deep.equal([]);
      expect(extractNeedsLocally("tees, Oeko-Tex Standard 100 and ISO 9001:2015").certifications).to.deep.equal(["OEKO-TEX", "ISO9001"]);
      expect(extractNeedsLocally("tees, GOTS preferred").certifications).to.deep.equal([]);
      expect(extractNeedsLocally("tees, no need for GOTS, OEKO-TEX required").certifications).to.deep.equal(["OEKO-TEX"]);
      expect(extractNeedsLocally("tees, GOTS or OEKO-TEX").certifications).to.deep.equal([]);
      expect(extractNeedsLocally("tees, SA8000 is a plus").certifications).to.deep.equal([]);
    });

    it("takes quantities only where units or products follow", () => {
      const quantity = (text: string) => extractNeedsLocally(text).quantity;
      expect(quantity("20k pcs of jeans")).to.equal(20_000);
      expect(quantity("500 dozen socks")).to.equal(6000);
      expect(quantity("socks, qty: 3000")).to.equal(3000);
      expect(quantity("1.200 pieces")).to.equal(1200);
      expect(quantity("2.5k units of towels")).to.equal(2500);
      expect(quantity("3,000 t-shirts")).to.equal(3000);
      expect(quantity("100% cotton t-shirts, 180 gsm, 3 colours, ISO 9001, within 45 days")).to.equal(undefined);
      expect(quantity("50,000,000 units")).to.equal(undefined);
    });

    it("reads lead times in days, weeks and months", () => {
      const days = (text: string) => extractNeedsLocally(text).maxLeadTimeDays;
      expect(days("delivered in 6 weeks")).to.equal(42);
      expect(days("45-day lead time")).to.equal(45);
      expect(days("lead time: 2 months")).to.equal(60);
      expect(days("polos, 3000 pcs")).to.equal(undefined);
    });

    it("reads country wishes, but not a material's origin or an exclusion", () => {
      expect(extractNeedsLocally("Turkish or Portuguese factory for knit polos").countries).to.deep.equal(["TR", "PT"]);
      expect(extractNeedsLocally("Egyptian cotton bedsheets").countries).to.deep.equal([]);
      expect(extractNeedsLocally("French terry hoodies").countries).to.deep.equal([]);
      expect(extractNeedsLocally("jackets, not from China, Vietnam is fine").countries).to.deep.equal(["VN"]);
    });

    it("never throws and stays within the vocabulary for any text", () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 2000, unit: "grapheme" }), (text) => {
          const read = extractNeedsLocally(text);
          expect(read.productTypes.every((t) => (PRODUCT_TYPES as readonly string[]).includes(t))).to.equal(true);
          expect(read.keywords.length).to.be.at.most(12);
          if (read.quantity !== undefined) expect(read.quantity).to.be.within(1, 10_000_000);
          if (read.maxLeadTimeDays !== undefined) expect(read.maxLeadTimeDays).to.be.within(1, 730);
        }),
        { numRuns: 300 },
      );
    });

    it("holds an AI reading to the same vocabulary, dropping what it does not know", () => {
      const read = needsFromAi({
        product_types: ["T-Shirts", "spaceships"],
        certifications: ["Oeko-Tex Standard 100", "FAIRTRADE"],
        quantity: 1200,
        countries: ["Bangladesh", "in", "Atlantis"],
        max_lead_time_days: null,
        keywords: ["Organic"],
      });
      expect(read).to.deep.equal({
        productTypes: ["t-shirt"],
        certifications: ["OEKO-TEX"],
        preferredCertifications: [],
        quantity: 1200,
        countries: ["BD", "IN"],
        maxLeadTimeDays: undefined,
        destination: undefined,
        incoterm: undefined,
        keywords: ["organic"],
      });
    });

    it("lets the request body's quantity win and adds its certifications to the text's", () => {
      const merged = applyRequest(needs({ quantity: 5000, certifications: ["ISO9001"] }), { quantity: 700_000, certifications: ["GOTS"] });
      expect(merged.quantity).to.equal(700_000);
      expect(merged.certifications).to.deep.equal(["GOTS", "ISO9001"]);
    });
  });

  describe("ranking on the seed registry", () => {
    const registry = seedRegistry();

    it("lists at most five factories, best first, each holding every required certification", () => {
      const ranking = rankFactories(registry, needs({ productTypes: ["t-shirt"], certifications: ["GOTS"] }));
      expect(ranking.matches).to.have.length(5);
      const scores = ranking.matches.map((m) => m.score);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
      for (const match of ranking.matches) expect(seedById.get(match.factory.factoryId)!.certifications).to.include("GOTS");
      // The best matches make t-shirts; a related knitwear maker can only follow them.
      expect(seedById.get(ranking.matches[0]!.factory.factoryId)!.product_types).to.include("t-shirt");
    });

    it("uses the audited on-chain certifications, not the profile's", () => {
      const claimsOnly = seedRegistry((f) => (f.factory_id === 1008 ? { profileCertifications: ["GOTS", ...f.certifications] } : {}));
      expect(ids(rankFactories(claimsOnly, needs({ productTypes: ["t-shirt"], certifications: ["GOTS"] })))).to.not.include(1008);
    });

    it("never offers a factory that is not registered on chain", () => {
      const best = rankFactories(registry, needs({ productTypes: ["t-shirt"] })).matches[0]!.factory.factoryId;
      const unregistered = seedRegistry((f) => (f.factory_id === best ? { registered: false } : {}));
      expect(ids(rankFactories(unregistered, needs({ productTypes: ["t-shirt"] })))).to.not.include(best);
    });

    it("keeps only factories whose minimum order and monthly capacity fit the quantity", () => {
      const ranking = rankFactories(registry, needs({ productTypes: ["t-shirt"], quantity: 700_000 }));
      expect(ids(ranking).sort()).to.deep.equal([1003, 1006, 1008]);
      const small = rankFactories(registry, needs({ productTypes: ["sweater"], quantity: 1000 }));
      for (const id of ids(small)) expect(seedById.get(id)!.min_order_units).to.be.at.most(1000);
    });

    it("says which filter left nobody", () => {
      const certs = rankFactories(registry, needs({ certifications: ["GOTS", "ISO9001", "SA8000"] }));
      expect(certs.matches).to.deep.equal([]);
      expect(certs.emptiedBy).to.deep.equal({ filter: "certifications" });
      const tooSmall = rankFactories(registry, needs({ productTypes: ["towel"], quantity: 100 }));
      expect(tooSmall.emptiedBy).to.deep.equal({ filter: "min_order", lowestMinOrder: 500 });
      const tooBig = rankFactories(registry, needs({ productTypes: ["jeans"], quantity: 9_000_000 }));
      expect(tooBig.emptiedBy).to.deep.equal({ filter: "capacity", highestCapacity: 1_500_000 });
      expect(templateSummary(needs({ productTypes: ["jeans"], quantity: 9_000_000 }), tooBig)).to.match(/capacity filter/);
    });

    it("does not list factories that make nothing like the product", () => {
      const ranking = rankFactories(registry, needs({ productTypes: ["towel"] }));
      for (const id of ids(ranking)) expect(seedById.get(id)!.product_types).to.satisfy((types: string[]) => types.includes("towel") || types.includes("home-textile"));
    });

    it("scores by the documented weights", () => {
      expect(Object.values(MATCH_WEIGHTS).reduce((a, b) => a + b, 0)).to.equal(100);
      const ranking = rankFactories(registry, needs({ productTypes: ["t-shirt"], quantity: 5000, countries: ["TR"], maxLeadTimeDays: 40 }), 24);
      const izmir = ranking.matches.find((m) => m.factory.factoryId === 1018)!;
      // Izmir: makes t-shirts (35), in Türkiye (10), 40 days (10), 5,000 of 140,000 (10 x 0.964/0.75 → 10), not verified (0).
      expect(izmir.parts).to.deep.include({ productType: 35, country: 10, leadTime: 10, capacity: 10, verified: 0 });
      expect(izmir.score).to.equal(Math.round(65 + (30 * izmir.factory.score) / 100));
      const tiruppur = ranking.matches.find((m) => m.factory.factoryId === 1009)!;
      // 50 days against 40 asked: a quarter over, a quarter of the lead-time points lost; not in Türkiye.
      expect(tiruppur.parts.leadTime).to.be.closeTo(7.5, 1e-9);
      expect(tiruppur.parts.country).to.equal(0);
    });

    it("moves a factory up when the buyer prefers its country", () => {
      const plain = ids(rankFactories(registry, needs({ productTypes: ["t-shirt"] }), 24));
      const turkish = ids(rankFactories(registry, needs({ productTypes: ["t-shirt"], countries: ["TR"] }), 24));
      expect(turkish.indexOf(1018)).to.be.below(plain.indexOf(1018));
    });

    it("gives the same list whatever the order of the registry, every match passing the filters and explained", () => {
      const certificationCodes = ["GOTS", "OEKO-TEX", "ISO9001"];
      fc.assert(
        fc.property(
          fc.record({
            productTypes: fc.uniqueArray(fc.constantFrom(...PRODUCT_TYPES), { maxLength: 3 }),
            certifications: fc.uniqueArray(fc.constantFrom(...certificationCodes), { maxLength: 2 }),
            quantity: fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: undefined }),
            countries: fc.uniqueArray(fc.constantFrom("BD", "IN", "VN", "TR", "PT", "CN"), { maxLength: 2 }),
            maxLeadTimeDays: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
          }),
          fc.func(fc.integer()),
          (partial, shuffleKey) => {
            const wanted = needs(partial);
            const ranking = rankFactories(registry, wanted);
            const shuffled = [...registry].sort((a, b) => shuffleKey(a.factoryId) - shuffleKey(b.factoryId));
            expect(ids(rankFactories(shuffled, wanted))).to.deep.equal(ids(ranking));
            expect(ranking.matches.length).to.be.at.most(5);
            expect(templateSummary(wanted, ranking)).to.be.a("string").and.not.equal("");
            for (const [i, match] of ranking.matches.entries()) {
              expect(templateReason(match, wanted)).to.match(/^[A-Z].*\.$/);
              expect(match.score).to.be.a("number").and.satisfy(Number.isInteger).and.within(0, 100);
              if (i > 0) expect(match.score).to.be.at.most(ranking.matches[i - 1]!.score);
              for (const code of wanted.certifications) expect(match.factory.certifications).to.include(code);
              if (wanted.quantity !== undefined) {
                expect(match.factory.capacityUnitsPerMonth!).to.be.at.least(wanted.quantity);
                expect(match.factory.minOrderUnits!).to.be.at.most(wanted.quantity);
              }
            }
          },
        ),
        { numRuns: 200 },
      );
    });

    it("explains a match from its score parts", () => {
      const wanted = needs({ productTypes: ["t-shirt"], certifications: ["GOTS"], quantity: 5000, maxLeadTimeDays: 45 });
      const match = rankFactories(registry, wanted, 24).matches.find((m) => m.factory.factoryId === 1003)!;
      expect(templateReason(match, wanted)).to.equal(
        `Makes t-shirts, polos and knitwear; GOTS, OEKO-TEX, BCI and SA8000 certified; capacity 900,000 units/month covers 5,000; ` +
          `lead time 60 days, 15 over the 45 asked; reputation ${match.factory.score} (${match.factory.grade}), verified.`,
      );
    });
  });

  describe("POST /api/marketplace/match", () => {
    const post = (url: string, body: unknown, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
      fetch(`${url}/api/marketplace/match`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });

    describe("input checks (API without the chain)", () => {
      let api: InProcessApi;
      before(async () => {
        api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("marketplace"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
      });
      after(() => api?.close());

      const invalid: Array<[string, unknown, string]> = [
        ["a missing rfq", { quantity: 10 }, "rfq"],
        ["an rfq over 2000 characters", { rfq: "t".repeat(2001) }, "rfq"],
        ["an rfq of spaces around one letter", { rfq: "   a   " }, "rfq"],
        ["an rfq that is not a string", { rfq: 12345 }, "rfq"],
        ["quantity 0", { rfq: "cotton tees", quantity: 0 }, "quantity"],
        ["quantity 1.5", { rfq: "cotton tees", quantity: 1.5 }, "quantity"],
        ['quantity "10"', { rfq: "cotton tees", quantity: "10" }, "quantity"],
        ["quantity above ten million", { rfq: "cotton tees", quantity: 10_000_001 }, "quantity"],
        ["an unknown certification", { rfq: "cotton tees", certifications: ["FAIRTRADE"] }, "certifications.0"],
        ["a repeated certification", { rfq: "cotton tees", certifications: ["GOTS", "GOTS"] }, "certifications"],
        ["an extra field", { rfq: "cotton tees", budget: 1000 }, "budget"],
        ["a JSON array", ["cotton tees"], "body"],
        ["a body that is not JSON", "{rfq: cotton tees", "body"],
      ];
      for (const [what, body, field] of invalid) {
        it(`rejects ${what} with 422 naming ${field}`, async () => {
          const res = await post(api.url, body);
          expect(res.status).to.equal(422);
          const envelope = (await res.json()) as ErrorEnvelope;
          expect(envelope.success).to.equal(false);
          expect(envelope.error.code).to.equal("VALIDATION_ERROR");
          expect(envelope.error.request_id).to.equal(res.headers.get("x-request-id"));
          expect(envelope.error.details?.map((d) => d.field)).to.include(field);
        });
      }

      it("rejects a body sent as text/plain with 415", async () => {
        const res = await post(api.url, JSON.stringify({ rfq: "cotton tees" }), { "Content-Type": "text/plain" });
        expect(res.status).to.equal(415);
        expect(((await res.json()) as ErrorEnvelope).error.code).to.equal("UNSUPPORTED_MEDIA_TYPE");
      });

      it("answers 503, not 500, while the indexer has not published the registry", async () => {
        const res = await post(api.url, { rfq: "cotton tees" });
        expect(res.status).to.equal(503);
        expect(((await res.json()) as ErrorEnvelope).error.code).to.equal("SERVICE_UNAVAILABLE");
      });

      it("is described in the OpenAPI document", async () => {
        const doc = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as OpenApiDoc;
        const operation = doc.paths["/api/marketplace/match"]!.post!;
        expect(operation.requestBody.content["application/json"].schema.required).to.deep.equal(["rfq"]);
        expect(operation.responses).to.include.keys(["200", "415", "422"]);
      });
    });

    describe("on the seeded stack", function () {
      let stack: SeededStack;
      const RFQ = "We need 5,000 organic cotton tees, GOTS certified, from Bangladesh or India, within 60 days.";
      type Match = { factory_id: number; name: string; score: number; reason: string; certifications: string[]; location: string };
      type Result = { matches: Match[]; rfq_summary: string; model: string };

      before(async function () {
        this.timeout(300_000);
        stack = await sharedStack();
      });

      describe("without an AI key", () => {
        it("ranks GOTS-certified t-shirt makers with the local matcher", async () => {
          const res = await post(stack.api.url, { rfq: RFQ });
          expect(res.status).to.equal(200);
          const body = (await res.json()) as Result;
          expect(body).to.have.keys(["matches", "rfq_summary", "model"]);
          expect(body.model).to.equal("local-matcher-v1");
          expect(body.matches.length).to.be.within(1, 5);
          const scores = body.matches.map((m) => m.score);
          expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
          for (const match of body.matches) {
            expect(match).to.have.keys(["factory_id", "name", "score", "reason", "certifications", "location"]);
            expect(match.certifications).to.include("GOTS");
            expect(match.reason).to.match(/^Makes t-shirts.*GOTS.* certified; capacity [\d,]+ units\/month covers 5,000; /);
            // Other test files may register more factories on the shared stack; the seed ones must match their data.
            const seed = seedById.get(match.factory_id);
            if (seed) expect([match.name, seed.certifications.includes("GOTS")]).to.deep.equal([seed.name, true]);
          }
          expect(body.matches[0]!.location).to.match(/, (Bangladesh|India)$/);
          expect(body.matches.find((m) => m.factory_id === 1003)?.location).to.equal("Narayanganj, Bangladesh");
          expect(body.rfq_summary).to.match(/t-shirts; 5,000 units; GOTS certified; made in Bangladesh or India/);
        });

        it("applies the body's quantity to capacity and minimum order", async () => {
          const res = await post(stack.api.url, { rfq: "5,000 cotton t-shirts", quantity: 700_000 });
          const body = (await res.json()) as Result;
          expect(body.matches.map((m) => m.factory_id).sort()).to.deep.equal([1003, 1006, 1008]);
          for (const match of body.matches) expect(match.reason).to.include("covers 700,000");
        });

        it("requires the body's certifications on top of the text's", async () => {
          const body = (await (await post(stack.api.url, { rfq: "denim jeans", certifications: ["GOTS", "ISO9001"] })).json()) as Result;
          expect(body.matches.map((m) => m.factory_id)).to.deep.equal([1012]);
        });

        it("accepts every certification the reader knows in the body, GRS included", async () => {
          const res = await post(stack.api.url, { rfq: "5,000 denim jeans", certifications: ["GRS", "BCI"] });
          expect(res.status).to.equal(200);
          const body = (await res.json()) as Result;
          expect(body.matches.length).to.be.at.least(1);
          for (const match of body.matches) expect(match.certifications).to.include.members(["GRS", "BCI"]);
        });

        it("lists the nearest misses, with what each lacks, when nothing qualifies", async () => {
          const res = await post(stack.api.url, { rfq: "Hi-vis coveralls, 5,000 pcs, ISO 9001 and SA8000 certified factory, FOB Chittagong" });
          expect(res.status).to.equal(200);
          const body = (await res.json()) as Result & { near_misses: Array<{ factory_id: number; name: string; lacks: string[]; location: string }> };
          expect(body.matches).to.deep.equal([]);
          expect(body.near_misses.length).to.be.within(1, 3);
          expect(body.near_misses[0]).to.deep.include({ factory_id: 1001, location: "Dhaka, Bangladesh", lacks: ["SA8000 certification"] });
          expect(body.rfq_summary).to.match(/No match: .*Nearest: Banani Loomcraft Apparels Ltd\. \(lacks SA8000 certification\)/);
        });

        it("returns no match with the reason when a filter leaves nobody", async () => {
          const res = await post(stack.api.url, { rfq: "bath towels", quantity: 100 });
          expect(res.status).to.equal(200);
          const body = (await res.json()) as Result;
          expect(body.matches).to.deep.equal([]);
          expect(body.rfq_summary).to.match(/No match: 100 units is below the minimum order .* \(lowest minimum 500; minimum-order filter\)/);
        });

        it("tells the buyer that 'organic' is not a GOTS requirement", async () => {
          const body = (await (await post(stack.api.url, { rfq: "organic cotton baby onesies" })).json()) as Result;
          expect(body.rfq_summary).to.include('"organic" is not read as a GOTS requirement');
          expect(body.matches.some((m) => !m.certifications.includes("GOTS"))).to.equal(true);
        });

        it("never answers 5xx, whatever the body", async function () {
          this.timeout(120_000);
          const body = fc.oneof(
            fc.record(
              {
                rfq: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(RFQ), fc.integer()),
                quantity: fc.oneof(fc.integer({ min: -5, max: 20_000_000 }), fc.double(), fc.string({ maxLength: 5 })),
                certifications: fc.array(fc.constantFrom("GOTS", "OEKO-TEX", "ISO9001", "GRS", "", 7), { maxLength: 4 }),
              },
              { requiredKeys: [] },
            ),
            fc.jsonValue({ maxDepth: 2 }),
          );
          await fc.assert(
            fc.asyncProperty(body, async (value) => {
              const res = await post(stack.api.url, value);
              await res.arrayBuffer();
              expect(res.status, JSON.stringify(value)).to.be.oneOf([200, 422]);
            }),
            { numRuns: 60 },
          );
        });
      });

      describe("with an OpenAI-compatible server", () => {
        let fake: FakeOpenAi;
        let api: InProcessApi;
        let local: Result;

        before(async () => {
          fake = await FakeOpenAi.start();
          api = await startInProcessApi(aiEnv());
          // The same RFQ read locally: the AI below reads it the same way, so the ranking must not differ.
          local = (await (await post(stack.api.url, { rfq: RFQ })).json()) as Result;
        });
        beforeEach(() => fake.reset());
        afterEach(() => expect(fake.unexpected, "unexpected requests to the AI server").to.deep.equal([]));
        after(async () => {
          await api?.close();
          await fake?.close();
        });

        const aiEnv = (extra: Record<string, string> = {}) => ({
          DATABASE_URL: stack.api.config.databaseUrl,
          RPC_URL: stack.chain.rpcUrl,
          CHAIN_ID: String(stack.chain.chainId),
          DEPLOYMENTS_DIR: stack.api.config.deploymentsDir,
          ONCHAIN_SCHEMA: stack.api.config.onchainSchema,
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: `${fake.url}/v1`,
          OPENAI_MODEL: "test-model",
          // One budget for the whole request (two AI calls and the registry query): roomy for a loaded CI machine.
          OPENAI_TIMEOUT_MS: "5000",
          ...extra,
        });
        const ranked = (result: Result) => result.matches.map((m) => [m.factory_id, m.score]);

        it("reports the server's model and uses its words, while the ranking stays the local one", async () => {
          fake.mode = "good";
          const res = await post(api.url, { rfq: RFQ });
          expect(res.status).to.equal(200);
          const body = (await res.json()) as Result;
          expect(body.model).to.equal("test-model-2025-01");
          expect(ranked(body)).to.deep.equal(ranked(local));
          expect(body.rfq_summary).to.equal("AI summary: organic cotton t-shirts from South Asia.");
          // The fake words every factory but the last; that one keeps the template reason.
          const last = body.matches.length - 1;
          body.matches.forEach((match, i) => {
            expect(match.reason).to.equal(i === last ? local.matches[i]!.reason : `AI reason for ${match.factory_id}.`);
          });

          expect(fake.calls.map((c) => c.kind)).to.deep.equal(["extraction", "wording"]);
          for (const call of fake.calls) {
            expect(call.authorization).to.equal("Bearer test-key");
            expect(call.body.model).to.equal("test-model");
            expect(call.body.response_format).to.deep.equal({ type: "json_object" });
          }
          expect(fake.calls[0]!.body.messages[1].content).to.include("organic cotton tees");
        });

        it("keeps the AI's reading but the template words when only the wording call fails", async () => {
          fake.mode = "wording-error";
          const body = (await (await post(api.url, { rfq: RFQ })).json()) as Result;
          expect(body.model).to.equal("test-model-2025-01");
          expect(body.matches).to.deep.equal(local.matches);
        });

        const fallbacks: Array<[FakeMode, string]> = [
          ["malformed", "malformed JSON"],
          ["wrong-shape", "invalid answer"],
          ["http-500", "HTTP 500"],
          ["slow", "timeout"],
        ];
        for (const [mode, reason] of fallbacks) {
          it(`falls back to the local matcher when the server answers ${mode}`, async function () {
            this.timeout(30_000);
            fake.mode = mode;
            const res = await post(api.url, { rfq: RFQ });
            expect(res.status).to.equal(200);
            const body = (await res.json()) as Result;
            expect(body.model).to.equal(`local-matcher-v1 (fallback: ${reason})`);
            expect(body.matches).to.deep.equal(local.matches);
            expect(body.rfq_summary).to.equal(local.rfq_summary);
            expect(fake.calls.map((c) => [c.kind, c.authorization])).to.deep.equal([["extraction", "Bearer test-key"]]);
          });
        }

        describe("AI quotas", () => {
          let limited: InProcessApi;
          before(async () => {
            limited = await startInProcessApi(aiEnv({ RFQ_AI_MATCHES_PER_CLIENT_HOUR: "2", RFQ_AI_MATCHES_PER_DAY: "3" }));
          });
          after(() => limited?.close());

          const quotaRows = () => stack.api.db("app.ai_quota").select("scope", "calls").orderBy("scope");

          it("asks the model within the client's hourly quota, then answers with the local matcher and says why", async () => {
            await stack.api.db("app.ai_quota").del();
            fake.mode = "good";
            for (let i = 0; i < 2; i += 1) {
              expect(((await (await post(limited.url, { rfq: RFQ })).json()) as Result).model).to.equal("test-model-2025-01");
            }
            expect(fake.calls).to.have.length(4);
            const res = await post(limited.url, { rfq: RFQ });
            expect(res.status).to.equal(200);
            const body = (await res.json()) as Result;
            expect(body.model).to.equal("local-matcher-v1 (fallback: client AI quota)");
            expect(body.matches).to.deep.equal(local.matches);
            expect(fake.calls, "the model was not asked past the quota").to.have.length(4);
            expect(await quotaRows()).to.deep.equal([
              { scope: "client:127.0.0.1", calls: 2 },
              { scope: "service", calls: 2 },
            ]);
          });

          it("stops at the service's daily quota too, and a refused match counts against neither", async () => {
            await stack.api.db("app.ai_quota").del();
            // Other clients take the day's three AI matches; the addresses of one IPv6 /64 count as one client.
            for (const client of ["198.51.100.7", "2001:db8:1:2::a", "2001:db8:1:2::b"]) {
              expect(await takeAiMatch(limited.db, limited.config.openai, client)).to.equal(undefined);
            }
            fake.mode = "good";
            const body = (await (await post(limited.url, { rfq: RFQ })).json()) as Result;
            expect(body.model).to.equal("local-matcher-v1 (fallback: daily AI quota)");
            expect(fake.calls).to.deep.equal([]);
            expect(await quotaRows()).to.deep.equal([
              { scope: "client:198.51.100.7", calls: 1 },
              { scope: "client:2001:db8:1:2::/64", calls: 2 },
              { scope: "service", calls: 3 },
            ]);
          });

          it("counts an IPv4 client by its address and an IPv6 client by its /64", () => {
            expect(clientBucket("203.0.113.9")).to.equal("203.0.113.9");
            expect(clientBucket("::ffff:203.0.113.9")).to.equal("203.0.113.9");
            expect(clientBucket("2001:db8:abcd:12:1:2:3:4")).to.equal("2001:db8:abcd:12::/64");
            expect(clientBucket("2001:db8::1")).to.equal("2001:db8:0:0::/64");
          });

          it("serves only the local matcher when a quota is 0", async () => {
            const off = await startInProcessApi(aiEnv({ RFQ_AI_MATCHES_PER_CLIENT_HOUR: "0" }));
            try {
              fake.mode = "good";
              const body = (await (await post(off.url, { rfq: RFQ })).json()) as Result;
              expect(body.model).to.equal("local-matcher-v1 (fallback: client AI quota)");
              expect(fake.calls).to.deep.equal([]);
            } finally {
              await off.close();
            }
          });
        });
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A real OpenAI-compatible HTTP server on 127.0.0.1: POST /v1/chat/completions answering chat.completion JSON.

type FakeMode = "good" | "wording-error" | "malformed" | "wrong-shape" | "http-500" | "slow";
type FakeCall = { kind: "extraction" | "wording"; authorization: string | undefined; body: { model: string; response_format: unknown; messages: Array<{ role: string; content: string }> } };

class FakeOpenAi {
  mode: FakeMode = "good";
  calls: FakeCall[] = [];
  unexpected: string[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: http.Server, readonly url: string) {}

  static async start(): Promise<FakeOpenAi> {
    const server = http.createServer();
    server.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    const fake = new FakeOpenAi(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on("request", (req, res) => void fake.handle(req, res));
    return fake;
  }

  reset(): void {
    this.mode = "good";
    this.calls = [];
    this.unexpected = [];
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      this.unexpected.push(`${req.method} ${req.url}`);
      return this.send(res, 404, { error: { message: "not found" } });
    }
    const body = JSON.parse(raw) as FakeCall["body"];
    const kind = body.messages[0]!.content.includes("rfq_summary") ? "wording" : "extraction";
    this.calls.push({ kind, authorization: req.headers.authorization, body });

    if (this.mode === "http-500" || (this.mode === "wording-error" && kind === "wording")) {
      return this.send(res, 500, { error: { message: "upstream exploded", type: "server_error" } });
    }
    if (this.mode === "slow") {
      // Far beyond OPENAI_TIMEOUT_MS (5000 ms); the timer is cleared when the server closes.
      const timer = setTimeout(() => this.send(res, 200, completion("{}")), 60_000);
      this.timers.add(timer);
      return;
    }
    if (this.mode === "malformed") return this.send(res, 200, completion('{"product_types": ["t-shirt"], '));
    if (this.mode === "wrong-shape") return this.send(res, 200, completion(JSON.stringify({ product_types: "tees", certifications: "GOTS" })));

    if (kind === "extraction") {
      // The RFQ read as the local matcher reads it, plus values outside the vocabulary that must be dropped.
      return this.send(
        res,
        200,
        completion(
          JSON.stringify({
            product_types: ["T-Shirts", "spaceships"],
            certifications: ["GOTS", "FAIRTRADE"],
            quantity: 5000,
            countries: ["Bangladesh", "IN"],
            max_lead_time_days: 60,
            keywords: ["organic", "cotton"],
          }),
        ),
      );
    }
    const facts = JSON.parse(body.messages[1]!.content) as { factories: Array<{ factory_id: number }> };
    const worded = facts.factories.slice(0, -1).reverse();
    const reasons = Object.fromEntries([...worded.map((f) => [String(f.factory_id), `AI reason for ${f.factory_id}.`]), ["9999", "Not a listed factory."]]);
    return this.send(res, 200, completion(JSON.stringify({ rfq_summary: "AI summary: organic cotton t-shirts from South Asia.", reasons })));
  }

  private send(res: http.ServerResponse, status: number, body: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  }
}

function completion(content: string) {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "test-model-2025-01",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}
