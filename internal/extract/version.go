package extract

// Version names the extraction rules (2026-11-24.1: the PDF reader on PDFium). Bump it whenever a change to this
// package can change the text it produces for the same bytes: monitors keep
// the raw page of their latest version and re-extract it with the new rules
// before comparing, so an extractor upgrade never reads as a document change.
const Version = "2026-11-24.1"
