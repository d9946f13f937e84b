// Languages without a stack: the choice of language, the two catalogues, the fallback of product texts, and the
// Bengali shaping the certificate PDF relies on (HarfBuzz over the same Noto Sans Bengali file the PDF embeds).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { BN } from "../../api/src/i18n/catalogue.bn";
import { EN } from "../../api/src/i18n/catalogue.en";
import { chooseLanguage, formatDateTime, fromAcceptLanguage, langParam } from "../../api/src/i18n/languages";
import { pickTexts } from "../../api/src/i18n/product-texts";
import { bengaliFace, scriptRuns } from "../../api/src/certificates/bengali-shaping";
import { certificateDigest, renderCertificatePdf, type CertificatePdfInput } from "../../api/src/certificates/pdf";

describe("i18n: languages and catalogues", () => {
  describe("choosing the language", () => {
    it("takes ?lang= first, then the cookie, then Accept-Language, then English", () => {
      expect(chooseLanguage({ query: "bn", cookie: "en", acceptLanguage: "en" })).to.deep.equal({ lang: "bn", source: "query" });
      expect(chooseLanguage({ query: undefined, cookie: "bn", acceptLanguage: "en" })).to.deep.equal({ lang: "bn", source: "cookie" });
      expect(chooseLanguage({ cookie: undefined, acceptLanguage: "bn-BD,bn;q=0.9,en;q=0.5" })).to.deep.equal({ lang: "bn", source: "accept-language" });
      expect(chooseLanguage({})).to.deep.equal({ lang: "en", source: "default" });
    });

    it("ignores a language it does not have, wherever it comes from", () => {
      expect(chooseLanguage({ query: "fr", cookie: "xx", acceptLanguage: "de" })).to.deep.equal({ lang: "en", source: "default" });
      expect(chooseLanguage({ query: "fr", cookie: "bn" }).lang).to.equal("bn");
      expect(langParam(["bn", "en"])).to.equal("bn");
      expect(langParam("BN")).to.equal("bn");
      expect(langParam("bn".repeat(10))).to.equal(undefined);
    });

    it("reads Accept-Language by q-value, then order, matching the primary subtag", () => {
      expect(fromAcceptLanguage("en-US,en;q=0.9,bn;q=0.8")).to.equal("en");
      expect(fromAcceptLanguage("fr;q=1, bn-IN;q=0.7, en;q=0.3")).to.equal("bn");
      expect(fromAcceptLanguage("en;q=0.2, bn;q=0.9")).to.equal("bn");
      expect(fromAcceptLanguage("bn;q=0, en;q=0.1")).to.equal("en");
      expect(fromAcceptLanguage("de-DE, fr")).to.equal(undefined);
      expect(fromAcceptLanguage("*")).to.equal("en");
      expect(fromAcceptLanguage("")).to.equal(undefined);
      expect(fromAcceptLanguage(";;;,,q=,")).to.equal(undefined);
    });

    it("writes dates with Bengali month names and Latin digits in Bengali", () => {
      const at = new Date("2026-11-22T09:10:00Z");
      expect(formatDateTime(at, "bn")).to.equal("22 নভেম্বর, 2026, 09:10 UTC");
      expect(formatDateTime(at, "en")).to.equal("22 November 2026, 09:10 UTC");
    });
  });

  describe("the catalogues", () => {
    /** Every key path of a catalogue, with the arity of each function. */
    function shape(value: unknown, prefix = ""): string[] {
      if (typeof value === "function") return [`${prefix}/${value.length}`];
      if (value && typeof value === "object") return Object.entries(value).flatMap(([key, inner]) => shape(inner, `${prefix}.${key}`));
      return [prefix];
    }

    it("have the same keys (nested too) and the same function signatures", () => {
      expect(shape(BN)).to.deep.equal(shape(EN));
    });

    it("have a Bengali text, not an English leftover, for every word of the pages", () => {
      const latinOnly = Object.entries(BN).filter(([key, value]) => typeof value === "string" && !/[\u0980-\u09FF]/u.test(value) && !["sku", "pdfUid"].includes(key));
      expect(latinOnly.map(([key]) => key)).to.deep.equal([]);
      for (const verdict of ["authentic", "replayed", "invalid", "unknown_tag", "not_bound", "unverified"] as const) {
        expect(BN.tapWords(verdict, "Brand").headline).to.match(/[\u0980-\u09FF]/u);
        expect(BN.tapWords(verdict, "Brand").headline).not.to.equal(EN.tapWords(verdict, "Brand").headline);
      }
    });

    it("keep the English words the pages had", () => {
      expect(EN.tapWords("invalid", "Acme").detail).to.match(/or ask Acme\.$/);
      expect(EN.scanDescription(true, "Low impact")).to.equal("Verified product passport: Low impact carbon footprint, materials, origin and care.");
    });
  });

  describe("product texts", () => {
    const original = { name: "Organic Tee", description: "Crew neck" };
    it("use the brand's translation, falling back to the original description when the translation has none", () => {
      expect(pickTexts(original, { name: "জৈব টি-শার্ট", description: "গোল গলা" })).to.deep.equal({ name: "জৈব টি-শার্ট", description: "গোল গলা", translated: true });
      expect(pickTexts(original, { name: "জৈব টি-শার্ট", description: "" })).to.deep.equal({ name: "জৈব টি-শার্ট", description: "Crew neck", translated: true });
      expect(pickTexts(original, undefined)).to.deep.equal({ name: "Organic Tee", description: "Crew neck", translated: false });
      expect(pickTexts({ name: "X", description: null }, undefined).description).to.equal("");
    });
  });

  describe("Bengali shaping for the PDF", () => {
    it("cuts mixed text into Bengali and Latin runs", () => {
      expect(scriptRuns("ID: কি 42")).to.deep.equal([
        { text: "ID: ", bengali: false },
        { text: "কি", bengali: true },
        { text: " 42", bengali: false },
      ]);
    });

    it("forms conjuncts, reorders pre-base vowel signs, splits two-part vowels and places marks", async function () {
      this.timeout(30_000);
      const face = await bengaliFace(400);
      const ids = (text: string) => face.shape(text).map((g) => g.id);
      const [ka] = ids("ক");
      const [iSign] = ids("\u09BF"); // ি alone: its glyph (after a dotted circle HarfBuzz may insert)
      expect(ids("ক্ষ")).to.have.length(1, "ক্ষ is one conjunct glyph");
      expect(ids("ক্ষ")[0]).not.to.equal(ka);
      const [na] = ids("ন");
      const [, virama] = ids("\u09CD");
      const nta = face.shape("ন্ত");
      expect(nta.map((g) => g.id)).not.to.include.members([na, virama], "ন্ত is a conjunct, not ন, a visible virama and ত");
      expect(nta.slice(1).every((g) => g.advance === 0 && (g.dx !== 0 || g.dy !== 0)), "its lower part is a mark placed by GPOS offsets").to.equal(true);
      expect(ids("কি")[1]).to.equal(ka, "ি is drawn before ক");
      expect(ids("কি")[0]).not.to.equal(ka);
      expect(ids("কে")[0]).not.to.equal(ka, "ে is drawn before ক");
      expect(ids("কো")).to.have.length(3, "ো is split around ক");
      expect(ids("কো")[1]).to.equal(ka);
      const reph = face.shape("র্ক");
      expect(reph[0]!.id).to.equal(ka, "the reph follows its base");
      expect(reph[1]!.advance).to.equal(0, "the reph is a mark above it");
      const u = face.shape("কু");
      expect(u[1]!.advance).to.equal(0, "ু sits below ক, taking no width");
      expect(iSign).to.be.a("number");
    });
  });

  describe("the certificate PDF", () => {
    /** Runs a poppler tool on the PDF (pdffonts, pdftotext are installed with poppler-utils). */
    function poppler(tool: string, pdf: Uint8Array, args: string[] = []): string {
      const dir = mkdtempSync(path.join(os.tmpdir(), "i18n-pdf-"));
      try {
        const file = path.join(dir, "c.pdf");
        writeFileSync(file, pdf);
        return execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const pdfFonts = (pdf: Uint8Array) => poppler("pdffonts", pdf);
    const pdfText = (pdf: Uint8Array) => poppler("pdftotext", pdf);

    const input: CertificatePdfInput = {
      brand: { name: "Demo Apparel", slug: "demo-apparel" },
      product: { name: "জৈব সুতির টি-শার্ট", sku: "TS-001", category: "t-shirt" },
      uid: "DEMO-7K3M9Q2X",
      tokenId: "1",
      contractAddress: `0x${"ab".repeat(20)}`,
      network: "hardhat-local",
      chainId: 31337,
      txHash: `0x${"cd".repeat(32)}`,
      dataHash: `0x${"ef".repeat(32)}`,
      issuedAt: new Date("2026-11-22T09:10:00Z"),
      certificateUrl: "http://127.0.0.1/dpp-certificate/DEMO-7K3M9Q2X",
      explorerUrl: "http://127.0.0.1/explorer/tx/0x00",
    };

    it("names the language in its digest, and renders the same bytes twice", async function () {
      this.timeout(60_000);
      expect(certificateDigest({ ...input, lang: "bn" })).not.to.equal(certificateDigest({ ...input, lang: "en" }));
      const [first, second] = [await renderCertificatePdf({ ...input, lang: "bn" }), await renderCertificatePdf({ ...input, lang: "bn" })];
      expect(Buffer.from(first).equals(Buffer.from(second))).to.equal(true);
      const fonts = pdfFonts(first);
      expect(fonts).to.match(/NotoSansBengali-Regular\s+CID TrueType\s+Identity-H\s+yes/).and.match(/NotoSansBengali-Bold/);
      // The runs carry their text (ActualText): extraction gives the Bengali words, conjuncts included.
      expect(pdfText(first)).to.include("জৈব").and.include("সার্টিফিকেট").and.include("সুতির");
    });

    it("embeds the Bengali font in an English certificate only for a Bengali name", async function () {
      this.timeout(60_000);
      expect(pdfFonts(await renderCertificatePdf({ ...input, product: { ...input.product, name: "Organic Tee" } }))).not.to.include("NotoSansBengali");
      expect(pdfFonts(await renderCertificatePdf(input))).to.include("NotoSansBengali");
    });
  });
});
