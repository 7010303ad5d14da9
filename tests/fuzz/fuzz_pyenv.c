/*
 * Fuzz target: any bytes as a Python package list (pip freeze, pip list,
 * its JSON, conda list and its JSON, METADATA, a CUDA arch list). The kind
 * is sniffed as ingest/pyenv.c does; input it does not recognise is parsed
 * as the kind its first byte picks, so every parser sees everything.
 */
#include "ingest/pyenv.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct py_env e;
	enum py_input kind = pyenv_sniff((const char *)data, size);

	if (kind == PY_NONE && size)
		kind = (enum py_input)(1 + data[0] % PY_CONDA_JSON);
	py_env_init(&e);
	if (kind != PY_NONE)
		pyenv_parse(&e, kind, (const char *)data, size, "fuzz-input");
	py_env_release(&e);
	return 0;
}
