# scaleaudit: one plain Makefile.
#   make              build ./scaleaudit (and ./scaleaudit-gen)
#   make check        build plain and with ASan+UBSan, run every test twice
#   make test         build plain and run every test once (the quick loop; check is the gate)
#   make demo         run the main job on the bundled example trial
#   make deps         install missing Debian packages (apt-get, through sudo when not root)
#   make nvtools      NVIDIA's cuobjdump from PyPI into build/nvidia (check does it; NVCC_WHEEL=1: nvcc too)
#   make bench        benchmarks;  make fuzz: fuzz targets (clang)
#   make install      PREFIX=/usr/local DESTDIR=: binary, man pages, completion, docs
#   make uninstall;   make deb: the Debian package into build/deb/ (mk/install.mk)
#   make tsan         ThreadSanitizer build (build/tsan) run on the bench and sample trials
#   make docs-img     redraw the pictures of docs/report.md from the sample trials
#   make man          refresh the generated parts of man/*.1 and man/*.5 from the code's tables
#   make SANITIZE=address,undefined   sanitizer build;  V=1 full command lines
.SUFFIXES:
.SECONDARY:
.DEFAULT_GOAL := all

VERSION  := 0.1.0
CC       ?= cc
BUILD    ?= build/plain
PKGS     := libcsv cairo pangocairo libpcre2-8 yajl zlib sqlite3 inih libarchive liblz4 libzstd
TESTPKGS := cmocka
# Used where the build finds them (see ISAL below); mk/deps.sh installs them.
OPTPKGS  := libisal

WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wcast-qual -Wwrite-strings -Wundef -Wvla -Wnull-dereference \
            -Wno-unused-parameter
CFLAGS   ?= -O2 -g
ALLCFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) \
            -I. -DSCALEAUDIT_VERSION='"$(VERSION)"' -MMD -MP
ifneq ($(WERROR),)
ALLCFLAGS += -Werror
endif
ifneq ($(SANITIZE),)
ALLCFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS   += -fsanitize=$(SANITIZE)
endif

# libcsv ships no pkg-config file: it is found by its header and -lcsv.
PC_PKGS   := $(filter-out libcsv,$(PKGS))
DEP_CFLAGS := $(shell pkg-config --cflags $(PC_PKGS) 2>/dev/null)
# --as-needed: a library on this list that the code does not call is not recorded
# in the binary (tests/sh/test_needed.sh checks each NEEDED entry is used).
DEP_LIBS   := -Wl,--as-needed $(shell pkg-config --libs $(PC_PKGS) 2>/dev/null) -lcsv -ldl -lm
TEST_LIBS  := $(shell pkg-config --libs $(TESTPKGS) 2>/dev/null)
FLOOR_LIBS := $(shell pkg-config --libs yajl zlib 2>/dev/null)
# ISA-L's igzip inflates gzip three times faster than zlib; without it
# (libisal-dev absent, or ISAL=0) ingest/gunzip.c uses zlib, with the same output.
ifeq ($(origin ISAL),undefined)
ISAL := $(shell pkg-config --exists $(OPTPKGS) 2>/dev/null && echo 1)
endif
ifeq ($(ISAL),1)
DEP_CFLAGS += -DHAVE_ISAL $(shell pkg-config --cflags libisal 2>/dev/null)
DEP_LIBS   += $(shell pkg-config --libs libisal 2>/dev/null)
endif

# Building needs the -dev packages; say so plainly instead of failing to compile.
# (check, test, demo and deps install them first, then build through a second make.)
DEPS_OK := $(shell pkg-config --exists $(PC_PKGS) 2>/dev/null && test -e /usr/include/csv.h && echo yes)
ifeq ($(DEPS_OK),)
ifneq ($(filter-out deps deps-ok nvtools check test demo clean fuzz uninstall deb,$(or $(MAKECMDGOALS),all)),)
$(error missing build dependencies: run 'make deps' first ('make check' and 'make demo' install them themselves))
endif
endif

ifeq ($(V),)
Q = @
say = @printf '  %-6s %s\n' $(1) $(2);
else
Q =
say =
endif

LIBDIRS  := core ingest analysis render replay
LIBSRC   := $(sort $(foreach d,$(LIBDIRS),$(wildcard $(d)/*.c)))
CLISRC   := $(sort $(wildcard cli/*.c))
GENSRC   := $(sort $(wildcard samples/gen/*.c))
UNITSRC  := $(sort $(wildcard tests/unit/test_*.c))
UNITHELP := $(filter-out $(UNITSRC),$(sort $(wildcard tests/unit/*.c)))

LIBOBJ   := $(LIBSRC:%.c=$(BUILD)/%.o)
CLIOBJ   := $(CLISRC:%.c=$(BUILD)/%.o)
GENOBJ   := $(GENSRC:%.c=$(BUILD)/%.o)
UNITHOBJ := $(UNITHELP:%.c=$(BUILD)/%.o)
UNITBIN  := $(UNITSRC:tests/unit/%.c=$(BUILD)/tests/%)
FLOORBIN := $(BUILD)/bench/floor
FUZZSRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZHOBJ := $(BUILD)/tests/fuzz/helper.o $(BUILD)/tests/fuzz/driver.o
FUZZBIN  := $(FUZZSRC:tests/fuzz/%.c=$(BUILD)/tests/fuzz/%)
LIBA     := $(BUILD)/libscaleaudit.a

ifeq ($(BUILD),build/plain)
BIN      := scaleaudit
GENBIN   := scaleaudit-gen
else
BIN      := $(BUILD)/scaleaudit
GENBIN   := $(BUILD)/scaleaudit-gen
endif

# The libraries the tool links with, for tests/fuzz/run.sh's own link lines.
print-libs:
	@echo $(DEP_LIBS)

.PHONY: print-libs all check test check-build check-plain check-san deps deps-ok nvtools gpu-check demo valgrind docs-img bench tsan fuzz clean tests FORCE
all: $(BIN) $(if $(GENSRC),$(GENBIN))

# Every object and link depends on $(FLAGS), which holds the compiler, the
# compile flags and the link flags this build uses. It is rewritten only when
# they change (a new SANITIZE, WERROR, CFLAGS, CC...), so changing a flag
# rebuilds everything and an unchanged one rebuilds nothing. The comparison is
# made here, when the Makefile is read, so `make -n` tells the truth too.
FLAGS     := $(BUILD)/flags
FLAGS_NOW := $(strip cc: $(CC) cflags: $(ALLCFLAGS) $(DEP_CFLAGS) \
             ldflags: $(LDFLAGS) libs: $(DEP_LIBS) test-libs: $(TEST_LIBS))
ifneq ($(FLAGS_NOW),$(file <$(FLAGS)))
$(FLAGS): FORCE
endif
$(FLAGS):
	@mkdir -p $(@D)
	$(call say,FLAGS,$@)printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' > $@
FORCE:

$(BUILD)/%.o: %.c $(FLAGS)
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(ALLCFLAGS) $(DEP_CFLAGS) -c -o $@ $<

$(LIBA): $(LIBOBJ)
	@mkdir -p $(@D)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BIN): $(CLIOBJ) $(LIBA) $(FLAGS)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $(CLIOBJ) $(LIBA) $(DEP_LIBS)

# The generator's ground truth must not come from the code it checks: it
# links the core model only, never ingest/ or analysis/.
COREOBJ  := $(filter $(BUILD)/core/%,$(LIBOBJ))
$(GENBIN): $(GENOBJ) $(COREOBJ) $(FLAGS)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $(GENOBJ) $(COREOBJ) $(DEP_LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(UNITHOBJ) $(LIBA) $(FLAGS)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $< $(TESTOBJ) $(UNITHOBJ) $(LIBA) $(DEP_LIBS) $(TEST_LIBS)

# cli/ is linked into the binary only: a unit test of a cli piece names its object.
$(BUILD)/tests/test_options: TESTOBJ = $(BUILD)/cli/options.o
$(BUILD)/tests/test_options: $(BUILD)/cli/options.o
# test_jsonscan shares the fuzz target's yajl-against-jsonscan comparison (tests/fuzz/jsondiff.h).
$(BUILD)/tests/test_jsonscan: TESTOBJ = $(BUILD)/tests/fuzz/fuzz_jsonscan.o
$(BUILD)/tests/test_jsonscan: $(BUILD)/tests/fuzz/fuzz_jsonscan.o

# The benchmark's parse floor (bench/floor.c): yajl and zlib, and the tool's tokenizer for --scan.
$(FLOORBIN): $(BUILD)/bench/floor.o $(LIBA) $(FLAGS)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $< $(LIBA) $(FLOOR_LIBS)

# The fuzz targets linked with a main that runs each file named once
# (tests/fuzz/driver.c), for the seed test; `make fuzz` links them with libFuzzer.
$(BUILD)/tests/fuzz/%: $(BUILD)/tests/fuzz/%.o $(FUZZHOBJ) $(LIBA) $(FLAGS)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $< $(FUZZHOBJ) $(LIBA) $(DEP_LIBS)

tests: all $(UNITBIN) $(FLOORBIN) $(FUZZBIN)

# `make check`: install what is missing, then build the suite plain and under
# ASan+UBSan, each in its own build directory with -Werror, both at once and
# with one job per core unless -j was given; then run the suite on each.
# The two builds share no file: objects, flags and binaries are per BUILD.
JOBS = $(shell nproc 2>/dev/null || echo 2)
check: deps-ok nvtools
	$(Q)$(MAKE) --no-print-directory $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(JOBS)) check-build
	$(Q)tests/run.sh build/plain build/san

# `make test`: the plain build alone, and the suite on it once: what check runs
# first, for a quick loop while changing the code. check stays the full gate.
test: deps-ok
	$(Q)$(MAKE) --no-print-directory $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(JOBS)) check-plain
	$(Q)tests/run.sh build/plain

check-build: check-plain check-san
check-plain:
	$(Q)$(MAKE) --no-print-directory WERROR=1 tests
# float-cast-overflow: GCC's "undefined" leaves it out, and the fuzzers found a double cast to int that overflowed
check-san:
	$(Q)$(MAKE) --no-print-directory WERROR=1 BUILD=build/san SANITIZE=address,undefined,float-cast-overflow CFLAGS='-O1 -g' tests

deps:
	$(Q)mk/deps.sh install

deps-ok:
	$(Q)mk/deps.sh ensure

# NVIDIA's cuobjdump (and with NVCC_WHEEL=1 nvcc 13.5) from PyPI into build/nvidia, for
# the tests that check the fat-binary reader against them; offline, those tests skip.
nvtools:
	$(Q)NVCC_WHEEL=$(NVCC_WHEEL) mk/nvtools.sh ensure build/nvidia

DEMO_TRIAL ?= samples/trials/ddp-scales-well
DEMO_OUT   ?= out/demo
demo: deps-ok
	$(Q)$(MAKE) --no-print-directory all
	$(Q)mk/demo.sh ./$(BIN) $(DEMO_TRIAL) $(DEMO_OUT)

# The demo and a few commands under valgrind's memcheck (tests/valgrind.supp says what is not ours).
valgrind: all
	$(Q)mk/valgrind.sh ./$(BIN)

# The pictures of docs/report.md, from the sample trials (needs pdftoppm).
docs-img: all
	$(Q)mk/docs-img.sh ./$(BIN)

# The checks that need an NVIDIA GPU, into out/gpu/ (tests/gpu/run.sh builds what it runs,
# stopping at once with the packages it needs when a build dependency is missing).
gpu-check:
	$(Q)tests/gpu/run.sh out/gpu

bench: all $(FLOORBIN)
	$(Q)tests/bench/run.sh ./$(BIN) $(FLOORBIN)

# ThreadSanitizer: analyze and report of the bench trials (small) and the sample
# trials, failing on any report (tests/bench/tsan.sh). Not part of check: a third
# full build costs minutes.
tsan: deps-ok
	$(Q)$(MAKE) --no-print-directory WERROR=1 BUILD=build/tsan SANITIZE=thread CFLAGS='-O1 -g' all
	$(Q)tests/bench/tsan.sh build/tsan/scaleaudit

fuzz:
	$(Q)tests/fuzz/run.sh

clean:
	rm -rf build scaleaudit scaleaudit-gen out

-include $(LIBOBJ:.o=.d) $(CLIOBJ:.o=.d) $(FLOORBIN).d $(GENOBJ:.o=.d) $(UNITHOBJ:.o=.d) $(FUZZHOBJ:.o=.d) $(FUZZBIN:%=%.d) $(UNITBIN:$(BUILD)/tests/%=$(BUILD)/tests/unit/%.d)

include mk/install.mk

# docs/codes.md is generated from the code table (core/codes.c); test_codes checks it is current.
$(BUILD)/tools/codes_md: $(BUILD)/tools/codes_md.o $(LIBA)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $< $(LIBA) $(DEP_LIBS)
docs/codes.md: $(BUILD)/tools/codes_md
	$(call say,GEN,$@)$< > $@.tmp && mv $@.tmp $@
-include $(BUILD)/tools/codes_md.d

# The generated parts of the man pages (descriptions, options, exit statuses, manifest keys,
# formats) come from the tool's own tables: `make man` refreshes them; test_man_page checks them.
.PHONY: man
man: $(BIN)
	$(Q)mk/man.sh ./$(BIN) $(sort $(wildcard man/*.1 man/*.5))

# Regenerate every committed sample trial (with its truth.json) from the generator.
.PHONY: samples
samples: $(GENBIN)
	$(Q)rm -rf samples/trials.new
	$(Q)./$(GENBIN) --all -o samples/trials.new
	$(Q)rm -rf samples/trials && mv samples/trials.new samples/trials
