/*
 * Fuzz target: any bytes as an analysis.json: read back, and when they are
 * read, written again and printed as text, so that what a hostile document
 * puts in the struct is drawn too.
 */
#include "analysis/analysis.h"
#include "core/diag.h"
#include "render/analysis_json.h"
#include "render/analysis_text.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diags d = DIAGS_INIT;
	struct analysis *a = analysis_parse_json((const char *)data, size, "fuzz.json", &d);

	if (a && fuzz_null()) {
		analysis_write_json(a, fuzz_null());
		analysis_write_text(a, fuzz_null(), NULL);
	}
	analysis_free(a);
	diags_release(&d);
	return 0;
}
