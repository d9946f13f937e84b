// The certificate PDF, read back from its bytes: one A4 page with the chain record, a QR code of the link, safe text;
// a textile passport's facts on the pages after it.
import { expect } from "chai";
import { inflateSync } from "node:zlib";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PageSizes, StandardFonts, type PDFFont } from "pdf-lib";
import QRCode from "qrcode";
import { certificateDigest, renderCertificatePdf, type CertificatePdfInput } from "../../api/src/certificates/pdf";
import type { TextileData } from "../../api/src/passports/textile";
import { messagesFor } from "../../api/src/i18n/messages";

const MAX_TOKEN_ID = (2n ** 256n - 1n).toString(); // 78 digits, the longest a uint256 prints
const TX_HASH = `0x${"3f9a".repeat(16)}`;
const DATA_HASH = `0x${"b7c1".repeat(16)}`;

function certificate(overrides: Partial<CertificatePdfInput> = {}): CertificatePdfInput {
  return {
    brand: { name: "Aurora Threads", slug: "aurora-threads", primaryColor: "#0E7C66" },
    product: { name: "Organic Cotton Crew-Neck T-Shirt", sku: "AUR-TS-001-M", category: "t-shirt" },
    uid: "04A2B3C4D5E6F7",
    tokenId: MAX_TOKEN_ID,
    contractAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    network: "polygon-amoy",
    chainId: 80002,
    txHash: TX_HASH,
    dataHash: DATA_HASH,
    issuedAt: new Date("2025-03-14T09:26:53.589Z"),
    certificateUrl: "https://passports.example.eu/dpp-certificate/04A2B3C4D5E6F7",
    explorerUrl: `https://amoy.polygonscan.com/tx/${TX_HASH}`,
    carbon: { kg: 3.2456, rating: "B" },
    ...overrides,
  };
}

type Box = { left: number; bottom: number; right: number; top: number };
type TextRun = Box & { text: string; font: string; size: number; fill: number[] };
type RenderedPage = { doc: PDFDocument; runs: TextRun[]; images: (Box & { stream: PDFRawStream })[] };

/**
 * What the page draws, read from its content stream: pdf-lib cannot extract text, so this interprets the few
 * operators it writes (q Q cm rg Tf TL Tm T* Tj Do) and measures each run with the metrics of the font the page names.
 */
async function readPage(bytes: Uint8Array, index = 0): Promise<RenderedPage> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const page = doc.getPage(index);
  const resources = page.node.Resources()!;
  const fontDict = resources.lookup(PDFName.of("Font"), PDFDict);
  const xObjects = resources.lookup(PDFName.of("XObject"), PDFDict);
  const scratch = await PDFDocument.create();
  const measured = new Map<string, PDFFont>();
  const baseFont = async (key: string) => {
    const name = fontDict.lookup(PDFName.of(key), PDFDict).lookup(PDFName.of("BaseFont"), PDFName).decodeText();
    if (!measured.has(name)) measured.set(name, await scratch.embedFont(name as StandardFonts));
    return { name, font: measured.get(name)! };
  };

  const contents = page.node.Contents()!;
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const source = streams.map((stream) => inflateSync((stream as PDFRawStream).contents).toString("latin1")).join("\n");
  // The PDF this test's own service rendered, not request data: a slow pattern here costs one test, never the API.
  // eslint-disable-next-line regexp/no-super-linear-move
  const tokens = source.match(/<[0-9A-Fa-f]*>|\[[^\]]*\]|\/[^\s/[\]<>()]+|[^\s/[\]<>()]+/g) ?? [];

  type Matrix = [number, number, number, number, number, number];
  const multiply = (m: Matrix, n: Matrix): Matrix => [
    m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
  ];
  const apply = (m: Matrix, x: number, y: number) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]] as const;
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let tm: Matrix = [1, 0, 0, 1, 0, 0];
  let fill: number[] = [0, 0, 0];
  let font = { key: "", size: 0 };
  let leading = 0;
  const runs: TextRun[] = [];
  const images: RenderedPage["images"] = [];
  let operands: string[] = [];
  for (const token of tokens) {
    if (!/^[A-Za-z*'"]+$/.test(token)) {
      operands.push(token);
      continue;
    }
    const numbers = operands.map(Number);
    switch (token) {
      case "q": stack.push(ctm); break;
      case "Q": ctm = stack.pop()!; break;
      case "cm": ctm = multiply(numbers as Matrix, ctm); break;
      case "rg": fill = numbers; break;
      case "Tf": font = { key: operands[0]!.slice(1), size: numbers[1]! }; break;
      case "TL": leading = numbers[0]!; break;
      case "BT": tm = [1, 0, 0, 1, 0, 0]; break;
      case "Tm": tm = numbers as Matrix; break;
      case "T*": tm = multiply([1, 0, 0, 1, 0, -leading], tm); break;
      case "Tj": {
        const hex = operands[0]!.slice(1, -1);
        const text = decodeWinAnsi(Buffer.from(hex, "hex"));
        const { name, font: metrics } = await baseFont(font.key);
        const [x, y] = apply(multiply(tm, ctm), 0, 0);
        // Character by character: widthOfTextAtSize applies kerning, which a Tj string does not get.
        const width = [...text].reduce((sum, ch) => sum + metrics.widthOfTextAtSize(ch, font.size), 0);
        // Ascender and descender of the standard fonts are within 0.8 and 0.25 of the size.
        runs.push({ text, font: name, size: font.size, fill, left: x, right: x + width, bottom: y - 0.25 * font.size, top: y + 0.8 * font.size });
        break;
      }
      case "Do": {
        const stream = xObjects.lookup(PDFName.of(operands[0]!.slice(1)));
        if (!(stream instanceof PDFRawStream) || stream.dict.lookup(PDFName.of("Subtype"), PDFName).decodeText() !== "Image") break;
        const [left, bottom] = apply(ctm, 0, 0);
        const [right, top] = apply(ctm, 1, 1);
        images.push({ stream, left, bottom, right, top });
        break;
      }
    }
    operands = [];
  }
  return { doc, runs, images };
}

// Bytes 0x80-0x9F of WinAnsi (Node's TextDecoder reads "windows-1252" as Latin-1); the rest is Latin-1.
const WIN_ANSI_80_9F = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";
const decodeWinAnsi = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? WIN_ANSI_80_9F[b - 0x80]! : String.fromCharCode(b))).join("");

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top;

describe("certificate PDF", () => {
  it("is one A4 portrait page whose metadata names the passport", async () => {
    const input = certificate();
    const bytes = await renderCertificatePdf(input);

    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).to.equal("%PDF-");
    expect(bytes.length).to.be.below(200 * 1024);
    const { doc } = await readPage(bytes);
    expect(doc.getPageCount()).to.equal(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([width, height]).to.deep.equal(PageSizes.A4);
    expect(doc.getTitle()).to.include(input.uid);
    expect(doc.getKeywords()).to.include(input.uid).and.to.include(input.txHash);
    expect(doc.getSubject()).to.include(input.product.name);
    expect(doc.getAuthor()).to.equal("Aurora Threads");
    expect(doc.getProducer()).to.equal("Passport Registry");
    // PDF dates keep whole seconds; neither date is "now", or re-rendering would change the bytes.
    expect(doc.getCreationDate()?.toISOString()).to.equal("2025-03-14T09:26:53.000Z");
    expect(doc.getModificationDate()?.toISOString()).to.equal("2025-03-14T09:26:53.000Z");
  });

  it("prints the product, the chain record in full and how to verify it", async () => {
    const input = certificate();
    const { runs } = await readPage(await renderCertificatePdf(input));
    // Long values wrap onto consecutive lines, so they are looked for in the lines joined without separators.
    const joined = runs.map((run) => run.text).join("");
    const prose = runs.map((run) => run.text).join(" ");

    expect(prose).to.include(messagesFor("en").pdfTitle);
    for (const value of [
      input.brand.name, input.product.name, input.product.sku, input.product.category, input.uid, input.tokenId,
      input.contractAddress, input.txHash, input.dataHash, input.certificateUrl, input.explorerUrl,
    ]) {
      expect(joined).to.include(value);
    }
    expect(prose).to.include("polygon-amoy (chain id 80002)");
    expect(prose).to.include("2025-03-14T09:26:53Z");
    expect(prose).to.include("3.25 kg CO2e, rating B");
    expect(prose).to.include("HOW TO VERIFY");
    expect(prose).to.match(/canonical JSON \(RFC 8785\).*keccak256/);
    expect(joined).to.include("https://passports.example.eu/api/dpp/04A2B3C4D5E6F7");
  });

  it("leaves the carbon line out when there is no carbon figure", async () => {
    const { runs } = await readPage(await renderCertificatePdf(certificate({ carbon: undefined })));
    const prose = runs.map((run) => run.text).join(" ");
    expect(prose).to.include("DATA HASH");
    expect(prose).not.to.include("CARBON");
    expect(prose).not.to.include("CO2e");
  });

  it("draws a QR code of the certificate URL clear of the text", async () => {
    const input = certificate();
    const bytes = await renderCertificatePdf(input);
    expect(Buffer.from(bytes).toString("latin1")).to.include("/Subtype /Image");

    const { runs, images } = await readPage(bytes);
    expect(images).to.have.length(1);
    const [qr] = images;
    const side = qr!.right - qr!.left;
    expect(side).to.be.closeTo(qr!.top - qr!.bottom, 0.01);
    expect(side, "about 4 cm, large enough to scan from print").to.be.at.least(110);
    for (const run of runs) expect(overlaps(run, qr!), `"${run.text}" is under the QR code`).to.equal(false);
    const caption = runs.filter((run) => Math.abs(run.left - qr!.left) < 0.01 && run.top <= qr!.bottom && run.top > qr!.bottom - 60);
    expect(caption.map((run) => run.text).join(""), "the link printed under the code").to.include(input.certificateUrl);

    // No QR decoder is installed, but the code is a pure function of the text: sample the centre of every module of
    // the embedded bitmap and compare it with the matrix of the certificate URL.
    const pixels = inflateSync(qr!.stream.contents);
    const width = qr!.stream.dict.lookup(PDFName.of("Width"), PDFNumber).asNumber();
    const { modules } = QRCode.create(input.certificateUrl, { errorCorrectionLevel: "M" });
    const margin = 1;
    const cells = modules.size + 2 * margin;
    const mismatches: string[] = [];
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        const px = Math.floor(((col + margin + 0.5) * width) / cells);
        const py = Math.floor(((row + margin + 0.5) * width) / cells);
        const dark = pixels[(py * width + px) * 3]! < 128;
        if (dark !== Boolean(modules.get(row, col))) mismatches.push(`${row},${col}`);
      }
    }
    expect(mismatches).to.deep.equal([]);
  });

  it("renders the same bytes every time, as the caller's ETag assumes", async () => {
    const first = await renderCertificatePdf(certificate());
    const second = await renderCertificatePdf(certificate());
    expect(Buffer.from(second).equals(Buffer.from(first))).to.equal(true);
  });

  it("keeps every line on the page, 24 pt from the edges, and no two lines on top of each other", async () => {
    const input = certificate({
      brand: { name: "Maison de Haute Couture et de Prêt-à-Porter Internationale Société Anonyme Holding", slug: "maison" },
      product: { name: "Organic ".repeat(40), sku: "SKU-".repeat(30), category: "home-textile ".repeat(12) },
      network: "polygon-amoy-with-an-unusually-long-network-name-for-the-test",
      certificateUrl: `https://passports.example-registry.eu/a/long/prefix/dpp-certificate/04A2B3C4D5E6F7?utm_source=${"x".repeat(60)}`,
      explorerUrl: `https://amoy.polygonscan.com/tx/${TX_HASH}?extra=${"y".repeat(120)}`,
    });
    const { runs } = await readPage(await renderCertificatePdf(input));
    const [pageWidth, pageHeight] = PageSizes.A4;
    const safe = 24;

    for (const run of runs) {
      expect(run.left, `"${run.text}"`).to.be.at.least(safe);
      expect(run.right, `"${run.text}"`).to.be.at.most(pageWidth - safe);
      expect(run.bottom, `"${run.text}"`).to.be.at.least(safe);
      expect(run.top, `"${run.text}"`).to.be.at.most(pageHeight - safe);
    }
    for (const [i, a] of runs.entries()) {
      for (const b of runs.slice(i + 1)) expect(overlaps(a, b), `"${a.text}" overlaps "${b.text}"`).to.equal(false);
    }
    // Wrapped, not cut: the identifiers a verifier has to copy are there in full.
    const joined = runs.map((run) => run.text).join("");
    for (const value of [input.tokenId, input.txHash, input.dataHash, input.contractAddress]) expect(joined).to.include(value);
  });

  it("wraps a 300-character product name to two lines ending in an ellipsis", async () => {
    const name = "Zephyrweave ".repeat(25).trim();
    expect(name.length).to.be.at.least(299);
    const { runs } = await readPage(await renderCertificatePdf(certificate({ product: { name, sku: "Z-1", category: "shirt" } })));
    const lines = runs.filter((run) => run.text.includes("Zephyrweave"));
    expect(lines).to.have.length(2);
    // Broken between words, not inside one.
    expect(lines[0]!.text).to.match(/^(Zephyrweave )*Zephyrweave$/);
    expect(lines[1]!.text).to.match(/^(Zephyrweave )*Zephyrweave…$/);
  });

  it("replaces characters the standard fonts cannot encode instead of failing", async () => {
    const name = "Café ≈ 東京 🌿 Łódź\nline\ttwo\u0000";
    const bytes = await renderCertificatePdf(
      certificate({ brand: { name, slug: "cafe" }, product: { name, sku: "☃-1", category: "🧥" } }),
    );
    const { doc, runs } = await readPage(bytes);
    const texts = runs.map((run) => run.text);
    // Latin-1 letters survive; CJK and emoji become "?", "≈" and "Ł" their closest ASCII, control characters spaces.
    expect(texts).to.include("Café ~ ?? ? Lódz line two");
    expect(texts).to.include("?-1");
    // Document metadata is UTF-16 and keeps the original name.
    expect(doc.getAuthor()).to.equal(name);
  });

  it("writes the brand name in white on a dark brand colour and in black on a light one", async () => {
    const brandFill = async (primaryColor?: string) => {
      const { runs } = await readPage(await renderCertificatePdf(certificate({ brand: { name: "Aurora Threads", slug: "a", primaryColor } })));
      return runs.find((run) => run.text === "Aurora Threads")!.fill;
    };
    expect(await brandFill("#0E1A40")).to.deep.equal([1, 1, 1]);
    expect(await brandFill("#F5E663")).to.deep.equal([0, 0, 0]);
  });

  it("falls back to the default colour when the brand colour is malformed", async () => {
    const withColour = (primaryColor?: string) =>
      renderCertificatePdf(certificate({ brand: { name: "Aurora Threads", slug: "a", primaryColor } }));
    const fallback = Buffer.from(await withColour(undefined));
    expect(Buffer.from(await withColour("red")).equals(fallback)).to.equal(true);
    expect(Buffer.from(await withColour("#12345")).equals(fallback)).to.equal(true);
    expect(Buffer.from(await withColour("#123456")).equals(fallback)).to.equal(false);
  });

  describe("a textile passport (content version 4)", () => {
    const HOSTILE = `Ashulia <script>alert("x")</script> Apparel`;
    const TEXTILE: TextileData = {
      production_date: "2026-10-01",
      commodity_code: { hs6: "610910", cn8: "61091000" },
      // Out of order: the certificate lists them from fibre to making-up.
      stages: [
        { stage: "making_up", facility: { name: HOSTILE, country: "BD" }, started: "2026-10-01", completed: "2026-10-12" },
        { stage: "fibre", facility: { name: "Izmir Recycled Fibres", country: "TR" } },
        { stage: "spinning", facility: { name: "Gujarat Spinning Mills", country: "IN", id: { scheme: "osh", value: "IN2021123AB12CD" } } },
        { stage: "weaving_knitting", facility: { name: "Gazipur Knit Composite", country: "BD" }, started: "2026-09-01", completed: "2026-09-20" },
      ],
      materials: [
        { fibre: "cotton", mass_percent: 60, origin_country: "IN" },
        { fibre: "polyester", mass_percent: 40, origin_country: "TR", recycled_percent: 100, recycled_origin: "post_consumer" },
      ],
      substances_of_concern: [{ name: "Antimony trioxide", cas: "1309-64-4", ec: "215-175-0", concentration_percent: 0.02, location: "polyester fibres" }],
      durability: [{ property: "pilling", standard: "ISO 12945-2", result: "grade 4 after 2,000 rubs", class: "4" }],
      care: { symbols: ["wash_30", "do_not_bleach", "line_dry", "iron_low"], text: "Wash inside out" },
      repair: { instructions: "Free seam repair for two years", spare_parts: ["buttons"], service_url: "https://repair.example.com/tee" },
      end_of_life: { recyclability: "Fibre-to-fibre recyclable", take_back: "Any of our shops takes it back" },
      carbon: { method: "estimate", kg_co2e: 3.1 },
    };
    const textile = (overrides: Partial<CertificatePdfInput> = {}) =>
      certificate({ textile: TEXTILE, stageAttestations: [{ confirmed_at: "2026-10-13T08:00:00.000Z" }, null, null, null], ...overrides });
    const pagesOf = async (bytes: Uint8Array) => {
      const doc = await PDFDocument.load(bytes, { updateMetadata: false });
      return Promise.all(doc.getPages().map((_, i) => readPage(bytes, i)));
    };

    it("prints made where stage by stage, materials, substances, durability, care with its codes, repair, end of life and carbon after the first page", async () => {
      const pages = await pagesOf(await renderCertificatePdf(textile()));
      expect(pages.length).to.be.at.least(2);
      const first = pages[0]!.runs.map((run) => run.text).join(" ");
      expect(first).to.include("DATA HASH").and.include("TEXTILE PASSPORT").and.not.include("MADE WHERE");
      // The passport's own carbon figure goes with its method, not as a bare rating on the first page.
      expect(first).not.to.include("CARBON").and.not.include("rating B");
      const rest = pages.slice(1).flatMap((page) => page.runs.map((run) => run.text)).join(" ");
      expect(rest).to.include("Textile passport").and.include("MADE WHERE");
      const order = ["FIBRE", "SPINNING", "WEAVING OR KNITTING", "MAKING UP (CUTTING AND SEWING)"].map((label) => rest.indexOf(label));
      expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), String(order)).to.equal(true);
      for (const text of [
        "Izmir Recycled Fibres", "Türkiye (TR)", "India (IN)", "Bangladesh (BD)", "Open Supply Hub IN2021123AB12CD", "2026-09-01 to 2026-09-20",
        HOSTILE, "Confirmed by the facility on 2026-10-13", "Declared by the brand",
        "100% recycled (post-consumer)", "Recycled content: 40% of the weight",
        "CAS 1309-64-4 · EC 215-175-0 · 0.02% by weight", "Where: polyester fibres",
        "PILLING", "grade 4 after 2,000 rubs · tested to ISO 12945-2 · class 4",
        "Wash at 30 °C [ISO 3758: wash_30]", "Do not bleach [ISO 3758: do_not_bleach]", "Wash inside out",
        "Free seam repair for two years", "https://repair.example.com/tee", "Any of our shops takes it back",
        "2026-10-01", "HS 610910 · CN 61091000", "3.10 kg CO2e", "Our estimate",
      ]) {
        expect(rest).to.include(text);
      }
    });

    it("prints a stage whose facility name and identifier a reader's access class withheld, without them", async () => {
      const withheld = { ...TEXTILE, stages: [{ stage: "spinning", facility: { country: "IN" } } as unknown as NonNullable<TextileData["stages"]>[number]] };
      const pages = await pagesOf(await renderCertificatePdf(textile({ textile: withheld, stageAttestations: [] })));
      const rest = pages.slice(1).flatMap((page) => page.runs.map((run) => run.text)).join(" ");
      expect(rest).to.include("India (IN) · Declared by the brand").and.not.include("undefined");
    });

    it("names a PEF study by its reference", async () => {
      const pef = { ...TEXTILE, carbon: { method: "pef_study" as const, kg_co2e: 2.4, study_reference: "PEF-2026-017" } };
      const pages = await pagesOf(await renderCertificatePdf(textile({ textile: pef })));
      const rest = pages.slice(1).flatMap((page) => page.runs.map((run) => run.text)).join(" ");
      expect(rest).to.include("From the brand's PEF study PEF-2026-017").and.not.include("Our estimate");
    });

    it("goes on to more pages when the lists are long, every line on its page and none on another", async () => {
      const long = "Gazipur Knit Composite and Dyeing Mills Limited, Unit ".repeat(3).trim();
      const stages = Array.from({ length: 20 }, (_, i) => ({
        stage: "dyeing_printing_finishing" as const, facility: { name: `${long} ${i + 1}`, country: "BD" }, started: "2026-09-01", completed: "2026-09-20",
      }));
      const pages = await pagesOf(await renderCertificatePdf(textile({ textile: { ...TEXTILE, stages }, stageAttestations: [] })));
      expect(pages.length).to.be.at.least(3);
      const [pageWidth, pageHeight] = PageSizes.A4;
      for (const [n, { runs }] of pages.entries()) {
        for (const run of runs) {
          expect(run.left, `page ${n + 1}: "${run.text}"`).to.be.at.least(24);
          expect(run.right, `page ${n + 1}: "${run.text}"`).to.be.at.most(pageWidth - 24);
          expect(run.bottom, `page ${n + 1}: "${run.text}"`).to.be.at.least(24);
          expect(run.top, `page ${n + 1}: "${run.text}"`).to.be.at.most(pageHeight - 24);
        }
        for (const [i, a] of runs.entries()) {
          for (const b of runs.slice(i + 1)) expect(overlaps(a, b), `page ${n + 1}: "${a.text}" overlaps "${b.text}"`).to.equal(false);
        }
      }
      const all = pages.flatMap((page) => page.runs.map((run) => run.text)).join(" ");
      for (let i = 1; i <= 20; i += 1) expect(all).to.include(`Unit ${i} · Bangladesh (BD)`);
    });

    it("is named by its textile section and its confirmations, and renders in Bengali", async () => {
      expect(certificateDigest(textile())).not.to.equal(certificateDigest(certificate()));
      expect(certificateDigest(textile())).not.to.equal(certificateDigest(textile({ stageAttestations: [] })));
      const bytes = await renderCertificatePdf(textile({ lang: "bn" }));
      const doc = await PDFDocument.load(bytes, { updateMetadata: false });
      expect(doc.getPageCount()).to.be.at.least(2);
      const fonts = doc.context.enumerateIndirectObjects().flatMap(([, object]) => {
        const name = object instanceof PDFDict ? object.lookupMaybe(PDFName.of("BaseFont"), PDFName) : undefined;
        return name ? [name.decodeText()] : [];
      });
      expect(fonts.some((name) => name.includes("NotoSansBengali")), fonts.join(", ")).to.equal(true);
    });
  });
});
