// Counts the certificates this process renders, for tests of what caching saves. Each render builds one pdf-lib
// document and nothing else in the service builds one, so counting PDFDocument.create counts renders without a
// counter in production code.
import { PDFDocument } from "pdf-lib";

let renders = 0;
const create = PDFDocument.create.bind(PDFDocument);
PDFDocument.create = (options) => {
  renders += 1;
  return create(options);
};

/** How many certificates this process has rendered since it loaded this module. */
export function certificateRenders(): number {
  return renders;
}
