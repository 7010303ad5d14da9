/*
 * stack_variants: packages that ship one library per GPU backend and load
 * one of them (bitsandbytes' libbitsandbytes_cuda118.so ... _cuda130.so,
 * _rocm62.so ...). Finds such files among a stack result's items by their
 * names, groups those of one package in one directory, and marks the
 * variants the environment would not load. Reads no file.
 */
#ifndef ANALYSIS_STACK_VARIANTS_H
#define ANALYSIS_STACK_VARIANTS_H

#include <stdbool.h>

#include "analysis/stack.h"

/*
 * A file name that names one backend variant: "lib" STEM "_" BACKEND
 * DIGITS, then optionally "_" and a word, then ".so" (and more): BACKEND
 * is "cuda" (DIGITS: a two-digit major, then the minor: 126 is 12.6) or
 * "rocm" (a one-digit major: 62 is 6.2). Fills what was found and returns
 * true; false when the name is not one.
 */
struct variant_name {
	const char *stem;		/* into the name: the package, "bitsandbytes" */
	size_t stem_len;
	const char *backend;		/* static: "cuda" or "rocm" */
	int major, minor;		/* 12, 6 */
	bool suffixed;			/* "_nocublaslt" and the like after the version */
};

bool variant_name_parse(const char *base, struct variant_name *v);

/*
 * Groups r's items that are variants of one package (two or more files of
 * one directory with the same stem, every backend together) and sets their
 * group, alternative and loaded_unknown (see struct stack_item). The loaded
 * variant follows bitsandbytes' own rule: the backend is ROCm when the
 * environment's PyTorch was built with ROCm (r->env.rocm), else CUDA
 * (r->env.torch_cuda); of that backend's variants, the one of exactly that
 * version, else the newest older one of the same major version, else the
 * oldest newer one of the same major; "_suffixed" variants only when no
 * plain one has that version. With none of the same major every variant is
 * alternative (the package loads no GPU library there); with neither
 * version known none is, and each is loaded_unknown. Call before
 * stack_decide().
 */
void stack_group_variants(struct stack_result *r);

#endif
