// The dashboard's tap analytics on a real Postgres and the real API: taps per day by verdict and per product, the
// verdict mix, each clone signal firing on its pattern and staying quiet on clean taps just inside its threshold,
// history before the period counted, one brand never seeing another's taps, every role reading, the period's bounds.
// Tags and taps are written straight into app.tags and app.tag_taps (verification is another module's), so each
// case is exactly the pattern it tests. No chain: nothing here mints.
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import type { Knex } from "../../api/src/db/knex";
import { COUNTER_JUMP_LIMIT, FAR_APART_MINUTES, INVALID_TAPS_PER_DAY_LIMIT } from "../../api/src/tags/analytics";
import { TAP_VERDICTS, type TapVerdict } from "../../api/src/tags/verdicts";
import { ROLES } from "../../api/src/team/roles";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Tap = { productUid: string; tagId: number | null; verdict: TapVerdict; counter?: number; region?: string; at: Date };
type Analytics = {
  days: number;
  daily: Array<{ date: string } & Record<TapVerdict, number>>;
  by_product: Array<{ uid: string; name: string; taps: number; authentic: number }>;
  verdict_mix: Record<TapVerdict, number>;
  suspicious: Array<{ tag_uid: string | null; product_uid: string; signals: Array<{ kind: string; detail: string; at: string }>; signal_count: number; last_tap_at: string }>;
};

/** Writes tags and taps as verification would leave them, for one brand. */
class TapWriter {
  readonly taps: Tap[] = [];
  constructor(
    private readonly db: Knex,
    readonly brandId: number,
    private readonly productIds: Map<string, number>,
  ) {}

  async tag(tagUid: string, productUid: string | null): Promise<number> {
    const [row] = await this.db("app.tags")
      .insert({ brand_id: this.brandId, tag_uid: tagUid, chip: "NTAG424", status: productUid ? "active" : "unassigned", product_id: productUid ? this.productIds.get(productUid) : null })
      .returning<Array<{ id: number }>>("id");
    return Number(row!.id);
  }

  async tap(...taps: Tap[]): Promise<void> {
    await this.db("app.tag_taps").insert(
      taps.map((tap) => ({
        brand_id: this.brandId,
        product_id: this.productIds.get(tap.productUid),
        tag_id: tap.tagId,
        verdict: tap.verdict,
        counter: tap.counter ?? null,
        client_region: tap.region ?? null,
        tapped_at: tap.at,
      })),
    );
    this.taps.push(...taps);
  }
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** Noon UTC `daysAgo` days before today: far from midnight, so the tap's day is the one the test expects. */
const noon = (daysAgo: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - daysAgo * DAY + 12 * HOUR);

describe("dashboard: tap analytics", () => {
  let api: InProcessApi;
  let contract: OpenApiContract;
  const departures: Promise<string[]>[] = [];
  const clients = new Map<string, DashboardClient>();
  let otherOwner: DashboardClient;
  let crossing: DashboardClient;
  let crossingUid = "";
  let a: TapWriter;
  let b: TapWriter;
  /** Brand A's products, by what their taps show. */
  const uid: Record<"clean" | "replay" | "jump" | "farApart" | "forged" | "quiet", string> = { clean: "", replay: "", jump: "", farApart: "", forged: "", quiet: "" };
  let otherUid = "";

  const analytics = async (client: DashboardClient, query = ""): Promise<{ status: number; body: { data: Analytics; error?: { code: string; details?: Array<{ field: string }> } } }> => {
    const path = `/api/dashboard/taps/analytics${query}`;
    const res = await client.call(path);
    departures.push(contract.check("GET", path, res.clone()));
    return { status: res.status, body: await json(res) };
  };
  const owner = () => clients.get("owner")!;
  const suspiciousOf = (data: Analytics, tagUid: string | null, productUid?: string) =>
    data.suspicious.find((entry) => entry.tag_uid === tagUid && (productUid === undefined || entry.product_uid === productUid));

  before(async function () {
    this.timeout(120_000);
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("tap_analytics"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    contract = await OpenApiContract.load(api.url);
    const brandA = await createBrand(api.db, { slug: "taps-a", name: "Taps A", uidPrefix: "TPA", plan: "growth" });
    const brandB = await createBrand(api.db, { slug: "taps-b", name: "Taps B", uidPrefix: "TPB" });
    for (const role of ROLES) clients.set(role, await dashboardClient(api.url, api.db, brandA.brand.id, role));
    otherOwner = await dashboardClient(api.url, api.db, brandB.brand.id, "owner");
    const brandC = await createBrand(api.db, { slug: "taps-c", name: "Taps C", uidPrefix: "TPC" });
    crossing = await dashboardClient(api.url, api.db, brandC.brand.id, "viewer");

    const create = async (client: DashboardClient, name: string) => {
      const res = await client.call("/api/dashboard/products", { method: "POST", json: { sku: name.replace(/\W/g, "-").toUpperCase(), name, category: "t-shirt", price: 10 } });
      expect(res.status, await res.clone().text()).to.equal(201);
      return (await json(res)).data.uid as string;
    };
    const idsOf = async (uids: string[]) => new Map((await api.db("app.products").whereIn("uid", uids).select("id", "uid")).map((row) => [row.uid as string, Number(row.id)]));
    for (const key of Object.keys(uid) as Array<keyof typeof uid>) uid[key] = await create(owner(), `Tee ${key}`);
    otherUid = await create(otherOwner, "Other tee");
    crossingUid = await create(await dashboardClient(api.url, api.db, brandC.brand.id, "editor"), "Crossing tee");
    a = new TapWriter(api.db, brandA.brand.id, await idsOf(Object.values(uid)));
    b = new TapWriter(api.db, brandB.brand.id, await idsOf([otherUid]));
    const c = new TapWriter(api.db, brandC.brand.id, await idsOf([crossingUid]));

    // Clean taps, each just inside a threshold: a jump of exactly the limit, a region change just after the window,
    // exactly the allowed number of invalid taps in a day; and every other verdict once, which is no signal.
    const clean = await a.tag("04A1A1A1A1A1A1", uid.clean);
    await a.tap(
      { productUid: uid.clean, tagId: clean, verdict: "authentic", counter: 3, region: "BD-13", at: noon(5) },
      { productUid: uid.clean, tagId: clean, verdict: "authentic", counter: 3 + COUNTER_JUMP_LIMIT, region: "DE-BE", at: new Date(noon(5).getTime() + (FAR_APART_MINUTES + 1) * MINUTE) },
      { productUid: uid.clean, tagId: clean, verdict: "authentic", counter: 4 + COUNTER_JUMP_LIMIT, at: new Date(noon(5).getTime() + (FAR_APART_MINUTES + 3) * MINUTE) },
      { productUid: uid.clean, tagId: clean, verdict: "authentic", counter: 5 + COUNTER_JUMP_LIMIT, region: "DE-BE", at: noon(2) },
      ...Array.from({ length: INVALID_TAPS_PER_DAY_LIMIT }, (_, i): Tap => ({ productUid: uid.clean, tagId: null, verdict: "invalid", at: new Date(noon(4).getTime() + i * MINUTE) })),
      { productUid: uid.clean, tagId: null, verdict: "unknown_tag", at: noon(3) },
      { productUid: uid.clean, tagId: null, verdict: "unverified", at: noon(3) },
      { productUid: uid.clean, tagId: clean, verdict: "not_bound", counter: 7 + COUNTER_JUMP_LIMIT, at: noon(1) },
    );
    // Another tag tapped in another region two minutes later (regions are compared tag by tag), then in its country
    // only, as a coarser lookup gives it (the same place): no signal either.
    const cleanTwin = await a.tag("04A2A2A2A2A2A2", uid.quiet);
    await a.tap(
      { productUid: uid.quiet, tagId: cleanTwin, verdict: "authentic", counter: 1, region: "US-CA", at: new Date(noon(5).getTime() + 2 * MINUTE) },
      { productUid: uid.quiet, tagId: cleanTwin, verdict: "authentic", counter: 2, region: "US", at: new Date(noon(5).getTime() + 5 * MINUTE) },
    );

    // Replays: one inside the period, one 40 days ago (only a longer period sees it).
    const replay = await a.tag("04B1B1B1B1B1B1", uid.replay);
    await a.tap(
      { productUid: uid.replay, tagId: replay, verdict: "authentic", counter: 7, at: noon(45) },
      { productUid: uid.replay, tagId: replay, verdict: "replayed", counter: 7, at: noon(40) },
      { productUid: uid.replay, tagId: replay, verdict: "authentic", counter: 9, at: noon(6) },
      { productUid: uid.replay, tagId: replay, verdict: "replayed", counter: 8, at: new Date(noon(6).getTime() + HOUR) },
    );

    // A counter jump whose previous accepted tap is 50 days old: history before the period counts.
    const jump = await a.tag("04C1C1C1C1C1C1", uid.jump);
    await a.tap(
      { productUid: uid.jump, tagId: jump, verdict: "authentic", counter: 2, at: noon(50) },
      { productUid: uid.jump, tagId: jump, verdict: "authentic", counter: 3 + COUNTER_JUMP_LIMIT, at: noon(3) },
    );

    // Far apart: two accepted taps of one tag, in two regions, minutes apart (a tap of unknown region between them).
    const farApart = await a.tag("04D1D1D1D1D1D1", uid.farApart);
    await a.tap(
      { productUid: uid.farApart, tagId: farApart, verdict: "authentic", counter: 10, region: "BD-13", at: noon(2) },
      { productUid: uid.farApart, tagId: farApart, verdict: "authentic", counter: 11, at: new Date(noon(2).getTime() + 1 * MINUTE) },
      { productUid: uid.farApart, tagId: farApart, verdict: "authentic", counter: 12, region: "DE-BE", at: new Date(noon(2).getTime() + 4 * MINUTE) },
    );

    // Forged URLs on a product with no tag bound: one more invalid tap in a day than allowed.
    await a.tap(...Array.from({ length: INVALID_TAPS_PER_DAY_LIMIT + 1 }, (_, i): Tap => ({ productUid: uid.forged, tagId: null, verdict: "invalid", at: new Date(noon(1).getTime() + i * MINUTE) })));

    // Brand B: a replaying tag and a forged product of its own, which brand A must never see.
    const otherTag = await b.tag("04E1E1E1E1E1E1", otherUid);
    await b.tap(
      { productUid: otherUid, tagId: otherTag, verdict: "authentic", counter: 1, region: "BD-13", at: noon(1) },
      { productUid: otherUid, tagId: otherTag, verdict: "replayed", counter: 1, region: "CN-SH", at: new Date(noon(1).getTime() + MINUTE) },
    );

    // Brand C: brand A's clean patterns, each one step over its threshold (the tag bound to the forged product
    // carries the invalid taps' signal; the other tag jumps and changes region exactly at the window's edge).
    const crossed = await c.tag("04F1F1F1F1F1F1", null);
    const bound = await c.tag("04F2F2F2F2F2F2", crossingUid);
    await c.tap(
      ...Array.from({ length: INVALID_TAPS_PER_DAY_LIMIT + 1 }, (_, i): Tap => ({ productUid: crossingUid, tagId: null, verdict: "invalid", at: new Date(noon(4).getTime() + i * MINUTE) })),
      { productUid: crossingUid, tagId: crossed, verdict: "authentic", counter: 1, region: "BD-13", at: noon(8) },
      { productUid: crossingUid, tagId: crossed, verdict: "authentic", counter: 2 + COUNTER_JUMP_LIMIT, region: "DE-BE", at: new Date(noon(8).getTime() + FAR_APART_MINUTES * MINUTE) },
    );
    expect(bound).to.be.a("number");
    // Two subdivisions of one country, minutes apart: far apart too.
    const subdivisions = await c.tag("04F3F3F3F3F3F3", null);
    await c.tap(
      { productUid: crossingUid, tagId: subdivisions, verdict: "authentic", counter: 1, region: "BD-13", at: noon(6) },
      { productUid: crossingUid, tagId: subdivisions, verdict: "authentic", counter: 2, region: "BD-10", at: new Date(noon(6).getTime() + 3 * MINUTE) },
    );
  });

  after(() => api?.close());

  it("counts taps per day by verdict (every day of the period, zeros included), per product and as a mix", async () => {
    const { status, body } = await analytics(owner());
    expect(status).to.equal(200);
    const data = body.data;
    expect(data.days).to.equal(30);
    expect(data.daily).to.have.length(30);
    expect(data.daily[29]!.date).to.equal(dayOf(new Date()));
    expect(data.daily[0]!.date).to.equal(dayOf(new Date(Date.now() - 29 * DAY)));

    const since = new Date(`${data.daily[0]!.date}T00:00:00Z`);
    const inPeriod = a.taps.filter((tap) => tap.at >= since);
    const expectedMix = Object.fromEntries(TAP_VERDICTS.map((verdict) => [verdict, inPeriod.filter((tap) => tap.verdict === verdict).length]));
    expect(data.verdict_mix).to.deep.equal(expectedMix);
    expect(data.verdict_mix.authentic).to.equal(11);
    for (const day of data.daily) {
      const expected = Object.fromEntries(TAP_VERDICTS.map((verdict) => [verdict, inPeriod.filter((tap) => tap.verdict === verdict && dayOf(tap.at) === day.date).length]));
      expect(day, day.date).to.deep.equal({ date: day.date, ...expected });
    }

    const clean = data.by_product.find((product) => product.uid === uid.clean);
    expect(clean).to.deep.equal({ uid: uid.clean, name: "Tee clean", taps: 12, authentic: 4 });
    expect(data.by_product[0]!.uid, "the most tapped first").to.equal(uid.clean);
    expect(data.by_product.map((product) => product.taps)).to.deep.equal([12, 6, 3, 2, 2, 1]);
  });

  it("lists exactly the tags with clone signals, each with the signal its pattern raises", async () => {
    const data = (await analytics(owner())).body.data;
    expect(data.suspicious.map((entry) => entry.tag_uid).sort()).to.deep.equal(["04B1B1B1B1B1B1", "04C1C1C1C1C1C1", "04D1D1D1D1D1D1", null].sort());

    const replay = suspiciousOf(data, "04B1B1B1B1B1B1")!;
    expect(replay.product_uid).to.equal(uid.replay);
    expect(replay.signals.map((signal) => signal.kind)).to.deep.equal(["replay"]);
    expect(replay.signals[0]!.detail).to.include("Counter 8 is not above 9");
    expect(replay.signals[0]!.at).to.equal(new Date(noon(6).getTime() + HOUR).toISOString());
    expect(replay.signal_count).to.equal(1);
    expect(replay.last_tap_at).to.equal(new Date(noon(6).getTime() + HOUR).toISOString());

    const jump = suspiciousOf(data, "04C1C1C1C1C1C1")!;
    expect(jump.signals.map((signal) => signal.kind)).to.deep.equal(["counter_jump"]);
    expect(jump.signals[0]!.detail).to.include(`from 2 to ${3 + COUNTER_JUMP_LIMIT}`);

    const farApart = suspiciousOf(data, "04D1D1D1D1D1D1")!;
    expect(farApart.signals.map((signal) => signal.kind)).to.deep.equal(["far_apart"]);
    expect(farApart.signals[0]!.detail).to.include("BD-13").and.include("DE-BE").and.include("4 min");
    expect(farApart.signals[0]!.at).to.equal(new Date(noon(2).getTime() + 4 * MINUTE).toISOString());

    const forged = suspiciousOf(data, null, uid.forged)!;
    expect(forged.signals.map((signal) => signal.kind)).to.deep.equal(["invalid_macs"]);
    expect(forged.signals[0]!.detail).to.include(`${INVALID_TAPS_PER_DAY_LIMIT + 1} taps`).and.include(dayOf(noon(1)));
    expect(forged.last_tap_at).to.equal(new Date(noon(1).getTime() + INVALID_TAPS_PER_DAY_LIMIT * MINUTE).toISOString());

    // The newest signal first.
    const newest = data.suspicious.map((entry) => entry.signals[0]!.at);
    expect(newest).to.deep.equal([...newest].sort().reverse());
  });

  it("raises nothing on clean taps just inside every threshold", async () => {
    const data = (await analytics(owner(), `?uid=${uid.clean}`)).body.data;
    expect(data.suspicious).to.deep.equal([]);
    expect(data.verdict_mix).to.deep.include({ authentic: 4, invalid: INVALID_TAPS_PER_DAY_LIMIT, unknown_tag: 1, unverified: 1, not_bound: 1 });
  });

  it("fires once a pattern crosses its threshold: an invalid tap more, a jump of one more, a region change at the window's edge or between subdivisions", async () => {
    // The clean patterns of brand A, each one step over, in a brand of their own.
    const data = (await analytics(crossing)).body.data;
    expect(data.suspicious.map((entry) => [entry.tag_uid, entry.signals.map((signal) => signal.kind).sort()])).to.deep.equal([
      ["04F2F2F2F2F2F2", ["invalid_macs"]],
      ["04F3F3F3F3F3F3", ["far_apart"]],
      ["04F1F1F1F1F1F1", ["counter_jump", "far_apart"]],
    ]);
    expect(data.suspicious[2]!.signal_count).to.equal(2);
    expect(data.suspicious[0]!.product_uid).to.equal(crossingUid);
  });

  it("looks back as far as asked: a 60-day period sees the older replay, a 1-day period only today", async () => {
    const sixty = (await analytics(owner(), "?days=60")).body.data;
    expect(sixty.daily).to.have.length(60);
    const replay = suspiciousOf(sixty, "04B1B1B1B1B1B1")!;
    expect(replay.signals.map((signal) => signal.at)).to.deep.equal([new Date(noon(6).getTime() + HOUR).toISOString(), noon(40).toISOString()]);
    expect(replay.signals[1]!.detail).to.include("Counter 7 is not above 7");
    expect(sixty.verdict_mix.replayed).to.equal(2);

    const today = (await analytics(owner(), "?days=1")).body.data;
    expect(today.daily).to.have.length(1);
    expect(today.daily[0]!.date).to.equal(dayOf(new Date()));
    expect(today.suspicious).to.deep.equal([]);
    expect(Object.values(today.verdict_mix).reduce((sum, n) => sum + n, 0)).to.equal(0);
  });

  it("narrows to one product's taps with uid (any case)", async () => {
    const data = (await analytics(owner(), `?uid=${uid.replay.toLowerCase()}`)).body.data;
    expect(data.by_product).to.deep.equal([{ uid: uid.replay, name: "Tee replay", taps: 2, authentic: 1 }]);
    expect(data.suspicious.map((entry) => entry.tag_uid)).to.deep.equal(["04B1B1B1B1B1B1"]);
    expect(data.verdict_mix).to.deep.include({ authentic: 1, replayed: 1, invalid: 0 });
  });

  it("shows a brand only its own taps and tags", async () => {
    const mine = (await analytics(owner(), "?days=365")).body.data;
    expect(mine.suspicious.map((entry) => entry.tag_uid)).to.not.include("04E1E1E1E1E1E1");
    expect(mine.by_product.map((product) => product.uid)).to.not.include(otherUid);
    expect(mine.verdict_mix.replayed).to.equal(2);

    const theirs = (await analytics(otherOwner)).body.data;
    expect(theirs.verdict_mix).to.deep.equal({ authentic: 1, replayed: 1, invalid: 0, unknown_tag: 0, not_bound: 0, unverified: 0 });
    expect(theirs.by_product).to.deep.equal([{ uid: otherUid, name: "Other tee", taps: 2, authentic: 1 }]);
    expect(theirs.suspicious.map((entry) => [entry.tag_uid, entry.signals.map((signal) => signal.kind)])).to.deep.equal([["04E1E1E1E1E1E1", ["replay"]]]);

    // Another brand's product is not found, not filtered to nothing.
    const crossed = await analytics(otherOwner, `?uid=${uid.replay}`);
    expect(crossed.status).to.equal(404);
    expect(crossed.body.error!.code).to.equal("NOT_FOUND");
  });

  it("lets every role that reads the brand's figures read, not a cashier, and nobody signed out", async () => {
    for (const role of ROLES) {
      const { status, body } = await analytics(clients.get(role)!, "?days=7");
      if (role === "cashier") {
        // Brand-wide figures are not a cashier's (docs/dashboard.md: a cashier has the till and their account).
        expect(status, role).to.equal(403);
        expect(body.error?.code, role).to.equal("FORBIDDEN");
        continue;
      }
      expect(status, role).to.equal(200);
      expect(body.data.daily, role).to.have.length(7);
    }
    const anonymous = await fetch(`${api.url}/api/dashboard/taps/analytics`);
    expect(anonymous.status).to.equal(401);
    expect((await json(anonymous)).error.code).to.equal("UNAUTHORIZED");
  });

  it("refuses a period outside 1 to 365 days and malformed parameters with 422, naming the field", async () => {
    for (const [query, field] of [
      ["?days=0", "days"],
      ["?days=366", "days"],
      ["?days=-1", "days"],
      ["?days=1.5", "days"],
      ["?days=abc", "days"],
      ["?days=030", "days"],
      [`?days=${"9".repeat(400)}`, "days"],
      ["?uid=no%20spaces", "uid"],
      [`?uid=TPA-${"A".repeat(60)}`, "uid"],
      ["?since=2020-01-01", "since"],
    ] as const) {
      const { status, body } = await analytics(owner(), query);
      expect(status, query).to.equal(422);
      expect(body.error!.code, query).to.equal("VALIDATION_ERROR");
      expect(body.error!.details!.map((detail) => detail.field).join(","), query).to.include(field);
    }
    expect((await analytics(owner(), "?days=365")).status).to.equal(200);
    expect((await analytics(owner(), "?uid=TPA-NOSUCHPRODUCT")).status).to.equal(404);
  });

  it("answers as the OpenAPI document says", async () => {
    expect(departures.length).to.be.greaterThan(20);
    expect((await Promise.all(departures)).flat()).to.deep.equal([]);
  });
});
