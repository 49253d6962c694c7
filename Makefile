# Makefile - pmon: libpmon, its tools, PAPI with the pmon component, tests.
#
#   make               libpmon (build/lib), tools (build/bin), and PAPI with
#                      the pmon component installed into build/
#   make validate      the main job: the validation suite (known kernels,
#                      every count checked; VALIDATE_ARGS="--help" for its
#                      options; doc/validate.md)
#   make check         also builds and runs the tests (ctests/ and the
#                      PAPI-level components/pmon/tests/); PMON_TEST_VERBOSE=1
#                      prints every test program's whole output
#   make check-asan    the same tests against an ASan/UBSan libpmon
#   make bench         builds and runs every bench/*.c program (each prints
#                      its own table) and the validation kernels' benchmarks
#   make bench-validate  only the validation kernels' benchmarks
#   make install       PREFIX=... DESTDIR=...: libpmon (with libpmon.pc),
#                      headers, tools, manual pages, PAPI
#   make uninstall     the same PREFIX and DESTDIR: removes what install put
#   make clean         everything built, but not the PAPI download cache
#   make distclean     all of build/ and config.mk (and the deb-src entries
#                      configure added to apt's sources)
#   make help          this text
#
# Examples after make (the emulated machine; README.md shows their output):
#   PMON_BACKEND=sim PMON_SIM=load=1G build/bin/papi_command_line \
#       pmon:::uncore_imc/cas_count_read/ pmon:::snbep_unc_imc0::UNC_M_CLOCKTICKS:socket=0
#   PMON_BACKEND=sim PMON_SIM=load=1G build/bin/pmon stat -M mem_bw -- sleep 1
#   build/bin/pmon encode UNC_M_CAS_COUNT.RD 'uncore_cbox_0/event=0x34,umask=0x03/'
#   build/bin/pmon list CAS_COUNT
#   build/examples/llc_misses
#
# Runs ./configure with its defaults when config.mk is missing.
# Overridable: PMON_SRCS (the library's sources), V=1 (show PAPI's output).

TOP := $(CURDIR)
B := build

NOCONF_GOALS := clean clean-pmon distclean help
ifneq ($(filter-out $(NOCONF_GOALS),$(or $(MAKECMDGOALS),all)),)
include config.mk
endif

include Rules.mk

.DEFAULT_GOAL := all
.PHONY: all lib tools examples papi check check-asan tests asan-tests bench install uninstall clean \
	bench-validate validate-break \
	clean-pmon distclean help
.DELETE_ON_ERROR:
# Keep objects that only lead to a program (tools, tests).
.SECONDARY:

# ------------------------------------------------------------------ sources
PMON_SRCS ?= $(sort $(wildcard src/*.c src/*/*.c))
TOOL_SRCS := $(sort $(wildcard tools/*.c))
# Example programs the documentation shows (built, and run by a test).
EXAMPLE_SRCS := $(sort $(wildcard doc/examples/*.c))
CTEST_SRCS := $(sort $(wildcard ctests/test_*.c))
# Other .c files in ctests/ are helpers (JSON reader, divergence table...):
# an archive linked into every test program, which takes what it uses.
CHELP_SRCS := $(filter-out $(CTEST_SRCS),$(sort $(wildcard ctests/*.c)))
PTEST_SRCS := $(sort $(wildcard components/pmon/tests/test_*.c))
BENCH_SRCS := $(sort $(wildcard bench/*.c bench/interpose/*.c))

OBJS := $(PMON_SRCS:%.c=$(B)/obj/%.o)
ASAN_OBJS := $(PMON_SRCS:%.c=$(B)/asan/obj/%.o)
# The emulated machine (src/sim/) is a library of its own, libpmon-sim, which
# libpmon's sim backend loads (src/sim_load.h); libpmon.a holds both.
SIM_OBJS := $(filter $(B)/obj/src/sim/%,$(OBJS))
ASAN_SIM_OBJS := $(filter $(B)/asan/obj/src/sim/%,$(ASAN_OBJS))
TOOL_OBJS := $(TOOL_SRCS:%.c=$(B)/obj/%.o)
# tools/<name>_tool.c builds the program <name> (its source is not named
# like include/pmon/pmon.h).
TOOLS := $(patsubst tools/%_tool.c,$(B)/bin/%,$(filter %_tool.c,$(TOOL_SRCS)))
# The other tools/*.c are parts of the pmon program (stat.c, stat_out.c).
PMON_PART_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(filter-out %_tool.c,$(TOOL_SRCS)))
EXAMPLE_OBJS := $(EXAMPLE_SRCS:%.c=$(B)/obj/%.o)
EXAMPLES := $(EXAMPLE_SRCS:doc/examples/%.c=$(B)/examples/%)
CTEST_OBJS := $(CTEST_SRCS:%.c=$(B)/obj/%.o)
CHELP_OBJS := $(CHELP_SRCS:%.c=$(B)/obj/%.o)
ASAN_CHELP_OBJS := $(CHELP_SRCS:%.c=$(B)/asan/obj/%.o)
CHELP_A := $(B)/ctests/libchelp.a
ASAN_CHELP_A := $(B)/asan/ctests/libchelp.a
CTESTS := $(CTEST_SRCS:ctests/%.c=$(B)/ctests/%)
ASAN_CTEST_OBJS := $(CTEST_SRCS:%.c=$(B)/asan/obj/%.o)
ASAN_CTESTS := $(CTEST_SRCS:ctests/%.c=$(B)/asan/ctests/%)
PTEST_OBJS := $(PTEST_SRCS:%.c=$(B)/obj/%.o)
PTESTS := $(PTEST_SRCS:components/pmon/tests/%.c=$(B)/ptests/%)
ASAN_PTEST_OBJS := $(PTEST_SRCS:%.c=$(B)/asan/obj/%.o)
ASAN_PTESTS := $(PTEST_SRCS:components/pmon/tests/%.c=$(B)/asan/ptests/%)
BENCH_OBJS := $(BENCH_SRCS:%.c=$(B)/obj/%.o)
BENCHES := $(BENCH_SRCS:bench/%.c=$(B)/bench/%)

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d) $(TOOL_OBJS:.o=.d) $(EXAMPLE_OBJS:.o=.d) \
	$(CTEST_OBJS:.o=.d) $(ASAN_CTEST_OBJS:.o=.d) \
	$(CHELP_OBJS:.o=.d) $(ASAN_CHELP_OBJS:.o=.d) \
	$(PTEST_OBJS:.o=.d) $(ASAN_PTEST_OBJS:.o=.d) $(BENCH_OBJS:.o=.d)

# ------------------------------------------------------------------ config
config.mk: configure
	./configure $(CONFIGURE_ARGS)

# Write $(2) into file $(1) only when it differs, so that the file's time
# tells when the setting last changed.
write-if-changed = $(shell mkdir -p $(dir $(1)) && \
	{ printf '%s\n' '$(2)' | cmp -s - $(1) || printf '%s\n' '$(2)' >$(1); })

# ----------------------------------------------------------------- libpmon
SOVER := 0
# The version is pmon.h's PMON_VERSION_STRING (one place to change it).
LIBVER := $(shell sed -n 's/^\#define PMON_VERSION_STRING "\(.*\)"/\1/p' include/pmon/pmon.h)
SONAME := libpmon.so.$(SOVER)
LIB_SO := $(B)/lib/libpmon.so.$(LIBVER)
LIB_A := $(B)/lib/libpmon.a
ASAN_LIB_SO := $(B)/asan/lib/libpmon.so.$(LIBVER)
SIM_SONAME := libpmon-sim.so.$(SOVER)
SIM_SO := $(B)/lib/libpmon-sim.so.$(LIBVER)
ASAN_SIM_SO := $(B)/asan/lib/libpmon-sim.so.$(LIBVER)
# libpmon.a calls the emulator directly: sim_load.c built with PMON_SIM_STATIC.
LIB_A_OBJS := $(filter-out $(B)/obj/src/sim_load.o,$(OBJS)) $(B)/obj/src/sim_load_a.o
# Programs that use the emulator's API (pmon/sim.h) link libpmon-sim; the
# others load it only through the sim backend.
SIM_LINK := -Wl,--as-needed -lpmon-sim -Wl,--no-as-needed
# -z defs: every symbol libpmon uses must resolve at link time.
SO_LDFLAGS := -shared -Wl,-soname,$(SONAME) -Wl,-z,defs -Wl,-Bsymbolic-functions
# Programs find libpmon.so in ../lib relative to themselves: in build/ and
# after installation alike.
ORIGIN_RPATH := -Wl,-rpath,'$$ORIGIN/../lib'

all: lib tools examples papi
lib: $(LIB_SO) $(SIM_SO) $(LIB_A)
tools: $(TOOLS)
examples: $(EXAMPLES)

# The emulator's access path (three copies, one per instruction set) runs
# for every modelled access: -O3 makes the DRAM-miss stream of
# bench/sim_mem about 3 % faster than -O2.
$(B)/obj/src/sim/sim_path_%.o $(B)/asan/obj/src/sim/sim_path_%.o: OPT_CFLAGS = -O3

$(LIB_SO): $(filter-out $(SIM_OBJS),$(OBJS))
	@mkdir -p $(@D)
	$(CC) $(SO_LDFLAGS) -o $@ $^ $(PKG_LIBS)
	ln -sf $(@F) $(@D)/$(SONAME)
	ln -sf $(SONAME) $(@D)/libpmon.so

$(ASAN_LIB_SO): $(filter-out $(ASAN_SIM_OBJS),$(ASAN_OBJS))
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) $(SO_LDFLAGS) -o $@ $^ $(PKG_LIBS)
	ln -sf $(@F) $(@D)/$(SONAME)
	ln -sf $(SONAME) $(@D)/libpmon.so

# libpmon-sim uses libpmon (pmon_why), found beside it.
SIM_SO_LDFLAGS := -shared -Wl,-soname,$(SIM_SONAME) -Wl,-z,defs -Wl,-Bsymbolic-functions \
	-Wl,-rpath,'$$ORIGIN'
$(SIM_SO): $(SIM_OBJS) $(LIB_SO)
	$(CC) $(SIM_SO_LDFLAGS) -o $@ $(SIM_OBJS) -L$(@D) -lpmon
	ln -sf $(@F) $(@D)/$(SIM_SONAME)
	ln -sf $(SIM_SONAME) $(@D)/libpmon-sim.so

$(ASAN_SIM_SO): $(ASAN_SIM_OBJS) $(ASAN_LIB_SO)
	$(CC) $(SANFLAGS) $(SIM_SO_LDFLAGS) -o $@ $(ASAN_SIM_OBJS) -L$(@D) -lpmon
	ln -sf $(@F) $(@D)/$(SIM_SONAME)
	ln -sf $(SIM_SONAME) $(@D)/libpmon-sim.so

-include $(B)/obj/src/sim_load_a.d
$(B)/obj/src/sim_load_a.o: src/sim_load.c
	@mkdir -p $(@D)
	$(COMPILE) -DPMON_SIM_STATIC -c $< -o $@

$(LIB_A): $(LIB_A_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(LIB_A_OBJS)

$(B)/bin/pmon: $(PMON_PART_OBJS)
$(B)/bin/%: $(B)/obj/tools/%_tool.o $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) -o $@ $(filter %.o,$^) -L$(B)/lib -lpmon $(PKG_LIBS) $(JSON_LIBS) -lm $(ORIGIN_RPATH)

$(B)/examples/%: $(B)/obj/doc/examples/%.o $(LIB_SO) $(SIM_SO)
	@mkdir -p $(@D)
	$(CC) -o $@ $< -L$(B)/lib $(SIM_LINK) -lpmon $(PKG_LIBS) -lm $(ORIGIN_RPATH)

# -------------------------------------------------------------------- PAPI
# PAPI's sources go to build/papi (unpacked from Debian's orig tarball, or
# copied from --with-papi-src), with src/components/pmon a symbolic link to
# components/pmon.  PAPI is configured with the pmon component (besides its
# default ones), built with its own flags, and installed into build/.
PAPI_DIR := $(B)/papi
PAPI_SRCDIR := $(PAPI_DIR)/src
PAPI_CACHE := $(B)/cache
PAPI_STAMP := $(PAPI_DIR)/.stamp-installed
PAPI_LOG := $(PAPI_DIR)/build.log

# PAPI uses the system's libpfm4 (the one the tests use as their oracle)
# rather than building and installing its bundled copy into build/lib.
# --with-tests=no: PAPI's own C and Fortran test programs are not needed.
# PAPI's example component is built in too: the benchmarks measure pmon's
# costs beside it, in the same PAPI.
PAPI_CONF_ARGS := --prefix=$(TOP)/$(B) --with-components='pmon example' --with-tests=no \
	--with-pfm-incdir=$(PFM_INCDIR) --with-pfm-libdir=$(PFM_LIBDIR) CC=$(CC)
# LDFLAGS reach every link of PAPI, its utilities (which link libpapi.a) too.
# $$$$ORIGIN becomes \$$ORIGIN in PAPI's makefiles, and $ORIGIN in the end.
PAPI_LDFLAGS := -L$(TOP)/$(B)/lib -lpmon $(PKG_LIBS) -Wl,-rpath,\$$$$ORIGIN/../lib
# Installation directories of PAPI inside build/ (given explicitly, so that
# a PREFIX or DESTDIR of the user's never leaks into this step).
PAPI_DIRS = PREFIX=$(1) EPREFIX=$(1) BINDIR=$(1)/bin LIBDIR=$(1)/lib \
	INCDIR=$(1)/include DATADIR=$(1)/share/papi MANDIR=$(1)/share/man \
	DOCDIR=$(1)/share/doc/papi
PAPI_MAKE = $(MAKE) -C $(PAPI_SRCDIR) PMON_ROOT=$(TOP)

ifneq ($(PAPI_SRC_DIR),)
PAPI_ORIGIN := dir $(PAPI_SRC_DIR)
else
PAPI_ORIGIN := debian papi 7.0.0
endif
ifneq ($(filter-out $(NOCONF_GOALS),$(or $(MAKECMDGOALS),all)),)
$(call write-if-changed,$(B)/papi-origin.id,$(PAPI_ORIGIN))
$(call write-if-changed,$(B)/papi-configure.id,$(PAPI_CONF_ARGS) LDFLAGS=$(PAPI_LDFLAGS))
endif

ifeq ($(V),1)
papi_quiet :=
else
papi_quiet := >>$(TOP)/$(PAPI_LOG) 2>&1 || { tail -n 60 $(TOP)/$(PAPI_LOG); echo "(full log: $(PAPI_LOG))"; exit 1; }
endif

papi: $(PAPI_STAMP)

# Command-line variables (CFLAGS=..., PREFIX=...) are meant for pmon's build,
# not for PAPI's: keep them off PAPI's make command lines.
$(PAPI_DIR)/.stamp-configured $(PAPI_STAMP) install: MAKEOVERRIDES :=

$(PAPI_DIR)/.stamp-unpacked: $(B)/papi-origin.id
	rm -rf $(PAPI_DIR) $(PAPI_DIR).tmp
	mkdir -p $(PAPI_DIR).tmp
ifneq ($(PAPI_SRC_DIR),)
	@echo "PAPI: copying $(PAPI_SRC_DIR)"
	(cd $(PAPI_SRC_DIR) && tar --exclude=.git -cf - .) | tar -C $(PAPI_DIR).tmp -xf -
else
	@tarball=$$(sh tools/build/papi-fetch.sh $(PAPI_CACHE) | tail -n 1) && \
	test -n "$$tarball" && echo "PAPI: unpacking $$tarball" && \
	tar -xf "$$tarball" -C $(PAPI_DIR).tmp --strip-components=1
endif
	test -f $(PAPI_DIR).tmp/src/configure
	rm -rf $(PAPI_DIR).tmp/src/components/pmon
	ln -s $(TOP)/components/pmon $(PAPI_DIR).tmp/src/components/pmon
	mv $(PAPI_DIR).tmp $(PAPI_DIR)
	touch $@

# PAPI's configure links test programs with PAPI_LDFLAGS: libpmon.so must
# exist (order-only: a rebuilt libpmon does not mean configuring again).
$(PAPI_DIR)/.stamp-configured: $(PAPI_DIR)/.stamp-unpacked $(B)/papi-configure.id | $(LIB_SO)
	@echo "PAPI: configure $(PAPI_CONF_ARGS)"
	@rm -f $(PAPI_LOG)
	@cd $(PAPI_SRCDIR) && ./configure $(PAPI_CONF_ARGS) LDFLAGS='$(PAPI_LDFLAGS)' $(papi_quiet)
	@# libpapi.so would carry a run path into build/lib (PAPI's LIBDIR);
	@# $$ORIGIN (from Rules.pmon) serves both build/lib and an installed lib.
	sed -i 's/ -Xlinker "-rpath" -Xlinker "$$(LIBDIR)"//' $(PAPI_SRCDIR)/Makefile
	touch $@

# Rebuilt when libpmon or the component change; PAPI's make then does only
# what its own dependencies call for.
$(PAPI_STAMP): $(PAPI_DIR)/.stamp-configured $(LIB_SO) \
		$(wildcard components/pmon/*.c components/pmon/*.h include/pmon/*.h) \
		components/pmon/Rules.pmon
	@echo "PAPI: make (output in $(PAPI_LOG))"
	@$(PAPI_MAKE) $(papi_quiet)
	@echo "PAPI: make install (into $(B)/)"
	@$(PAPI_MAKE) install DESTDIR= $(call PAPI_DIRS,$(TOP)/$(B)) $(papi_quiet)
	touch $@

# -------------------------------------------------------------------- tests
TEST_LIBS = $(PFM_LIBS) $(PKG_LIBS) $(JSON_LIBS) -lm
PTEST_INC := -I$(B)/include -I$(PAPI_SRCDIR)/testlib -iquote ctests
PTEST_TESTLIB := $(PAPI_SRCDIR)/testlib/libtestlib.a

$(PTEST_OBJS) $(ASAN_PTEST_OBJS): EXTRA_CFLAGS = $(PTEST_INC)
$(PTEST_OBJS) $(ASAN_PTEST_OBJS): | $(PAPI_STAMP)

$(CHELP_A): $(CHELP_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(CHELP_OBJS)

$(ASAN_CHELP_A): $(ASAN_CHELP_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(ASAN_CHELP_OBJS)

$(B)/ctests/%: $(B)/obj/ctests/%.o $(CHELP_A) $(LIB_SO) $(SIM_SO)
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(CHELP_A) -L$(B)/lib $(SIM_LINK) -lpmon $(TEST_LIBS) -Wl,-rpath,$(TOP)/$(B)/lib

$(B)/asan/ctests/%: $(B)/asan/obj/ctests/%.o $(ASAN_CHELP_A) $(ASAN_LIB_SO) $(ASAN_SIM_SO)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -o $@ $< $(ASAN_CHELP_A) -L$(B)/asan/lib $(SIM_LINK) -lpmon $(TEST_LIBS) \
		-Wl,-rpath,$(TOP)/$(B)/asan/lib

# PAPI-level tests: the program itself needs libpmon (--no-as-needed, even
# when it calls no pmon function), ahead of libpapi, so that the copy it
# loads is the one libpapi.so's dependency resolves to: one libpmon.
PTEST_LDFLAGS := -Wl,--no-as-needed
$(B)/ptests/%: $(B)/obj/components/pmon/tests/%.o $(LIB_SO) $(SIM_SO) $(PAPI_STAMP)
	@mkdir -p $(@D)
	$(CC) $(PTEST_LDFLAGS) -o $@ $< -L$(B)/lib $(SIM_LINK) -lpmon -lpapi $(PTEST_TESTLIB) $(PKG_LIBS) -lm \
		-Wl,-rpath,$(TOP)/$(B)/lib

# ASan: an instrumented program and libpmon, with PAPI itself not instrumented.
$(B)/asan/ptests/%: $(B)/asan/obj/components/pmon/tests/%.o $(ASAN_LIB_SO) $(ASAN_SIM_SO) $(PAPI_STAMP)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) $(PTEST_LDFLAGS) -o $@ $< -L$(B)/asan/lib $(SIM_LINK) -lpmon -L$(B)/lib -lpapi $(PTEST_TESTLIB) \
		$(PKG_LIBS) -lm -Wl,-rpath,$(TOP)/$(B)/asan/lib:$(TOP)/$(B)/lib

tests: all $(CTESTS) $(PTESTS)
asan-tests: all $(ASAN_CTESTS) $(ASAN_PTESTS)

# The test programs are built with -k: one that does not compile is missing,
# and the runner counts it as a failure while the others still run.  The
# PAPI-level tests run with PMON_BACKEND=sim (the runner sets it); the smoke
# test checks PAPI's utilities in build/bin; install-check installs into a
# temporary DESTDIR and builds an outside program with pkg-config.
# The output is one result line per program (its whole output when it
# fails, or with PMON_TEST_VERBOSE=1) and the total last.
# run.sh runs as many programs at once as CPUs, by the CPU time each took in
# the last run (kept in $(B)/check-times, --times), longest first, so that
# none of them starts last and runs alone; a program with no time yet (a new
# test) starts first; those that took under a second of CPU time (most of
# them; some mostly wait, on sleeps or lock timeouts) run beside them in half
# as many slots more, holding no CPU's slot.  CHECK_FIRST only orders a first run, with no times yet.
CHECK_FIRST := test_vshapes test_vbreak test_vsuite test_vbase test_stat test_runfiles \
	test_sim_invariants test_sim_paths test_vdgemm_order test_journal_fuzz
longest_first = $(foreach t,$(CHECK_FIRST),$(filter %/$(t),$(1))) \
	$(filter-out $(addprefix %/,$(CHECK_FIRST)),$(1))
# The journal fuzz (test_journal_fuzz) runs CHECK_FUZZ_SECONDS a part in
# make check, and its default of 2 s a part in make check-asan, where the
# sanitizers see what it finds; a longer hunt: make check CHECK_FUZZ_SECONDS=60
# (or PMON_FUZZ_SECONDS=60 in the environment).
CHECK_FUZZ_SECONDS ?= $(or $(PMON_FUZZ_SECONDS),1)
check: all
	@$(MAKE) -k -s --no-print-directory $(CTESTS) $(PTESTS) $(VALIDATE) $(VAL_TESTS) || \
		echo "check: some test programs did not build"
	@sh ctests/run.sh --times $(B)/check-times $(VAL_CHECK) --group -e PMON_FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS) \
		$(call longest_first,$(CTESTS)) tools/build/install-check.sh tools/build/simlib-check.sh \
		tools/build/runner-check.sh tools/build/apt-src-check.sh \
		--group -e PMON_BACKEND=sim $(PTESTS) tools/build/papi-smoke.sh

# run.sh finds out with the probe whether LeakSanitizer works here, and
# turns leak detection off when it does not.
LSAN_PROBE := $(B)/asan/lsan-probe
$(LSAN_PROBE): $(B)/asan/obj/tools/build/lsan-probe.o
	$(CC) $(SANFLAGS) -o $@ $<

check-asan: all
	@$(MAKE) -k -s --no-print-directory $(LSAN_PROBE) $(ASAN_CTESTS) $(ASAN_PTESTS) $(ASAN_VALIDATE) \
		$(ASAN_VAL_TESTS) || echo "check-asan: some test programs did not build"
	@sh ctests/run.sh --lsan-probe $(LSAN_PROBE) --times $(B)/asan/check-times $(ASAN_VAL_CHECK) --group $(call longest_first,$(ASAN_CTESTS)) \
		--group -e PMON_BACKEND=sim $(ASAN_PTESTS)

# -------------------------------------------------------------- benchmarks
# Every bench/*.c is a program of its own that prints its own table; it may
# use libpmon (public and internal headers), PAPI, and the tests' fake
# device files (ctests/fake_hw.h).  Speed and memory targets are read from
# these tables, never asserted by tests.  A program under bench/interpose/
# defines libc's file calls itself (to count them): it is no part of the
# library and nothing links against it.
$(BENCH_OBJS): EXTRA_CFLAGS = -I$(B)/include -iquote ctests
$(BENCH_OBJS): | $(PAPI_STAMP)

$(B)/bench/%: $(B)/obj/bench/%.o $(LIB_SO) $(SIM_SO) $(PAPI_STAMP)
	@mkdir -p $(@D)
	$(CC) $(PTEST_LDFLAGS) -o $@ $< -L$(B)/lib $(SIM_LINK) -lpmon -lpapi $(PKG_LIBS) -lm -ldl \
		-Wl,-rpath,$(TOP)/$(B)/lib

bench: all $(BENCHES)
	@for b in $(BENCHES); do echo "=== $$b"; $$b || exit 1; done
	@$(MAKE) --no-print-directory bench-validate

# --------------------------------------------------------- validation suite
# validate/: the kernels (kern_*.c) are written once and compiled twice:
# natively, and for the emulated machine (-DKERN_EMU: every cache line the
# kernel touches is fed, in order, to the memory model).  pmon-validate runs
# them on the hardware or the emulated machine and checks every count;
# `make validate` is the project's main command (VALIDATE_ARGS=... passes
# options).  validate/tests/ holds its tests (unit tests, the short suite and
# the breakage test) and bench/validate/ its benchmarks.
VAL_KERN_SRCS := $(sort $(wildcard validate/kern_*.c))
VAL_SRCS := $(filter-out $(VAL_KERN_SRCS),$(sort $(wildcard validate/*.c)))
VAL_OBJS := $(VAL_SRCS:%.c=$(B)/obj/%.o) $(VAL_KERN_SRCS:%.c=$(B)/obj/%.o) \
	$(VAL_KERN_SRCS:validate/%.c=$(B)/obj/validate/emu/%.o)
ASAN_VAL_OBJS := $(VAL_OBJS:$(B)/obj/%=$(B)/asan/obj/%)
VALIDATE := $(B)/bin/pmon-validate
ASAN_VALIDATE := $(B)/asan/bin/pmon-validate
VAL_TEST_SRCS := $(sort $(wildcard validate/tests/test_*.c))
VAL_TESTS := $(VAL_TEST_SRCS:validate/tests/%.c=$(B)/validate-tests/%)
ASAN_VAL_TESTS := $(VAL_TEST_SRCS:validate/tests/%.c=$(B)/asan/validate-tests/%)
VAL_TEST_OBJS := $(VAL_TEST_SRCS:%.c=$(B)/obj/%.o)
ASAN_VAL_TEST_OBJS := $(VAL_TEST_SRCS:%.c=$(B)/asan/obj/%.o)
# Everything of the suite but main.o, for the unit tests.
VAL_LIBOBJS := $(filter-out %/validate/main.o,$(VAL_OBJS))
ASAN_VAL_LIBOBJS := $(filter-out %/validate/main.o,$(ASAN_VAL_OBJS))
VAL_LIBS = $(JSON_LIBS) $(PKG_LIBS) -lm
VALIDATE_ARGS ?=

-include $(VAL_OBJS:.o=.d) $(ASAN_VAL_OBJS:.o=.d) $(VAL_TEST_OBJS:.o=.d) $(ASAN_VAL_TEST_OBJS:.o=.d)

# OpenMP for the kernel threads; -O3 vectorizes the kernels' loops; they
# stay loops (gcc would turn Copy into a memcpy call, which streams its
# stores on large sizes).  McCalpin's STREAM gets the same flags (below).
VAL_KFLAGS := -O3 -fopenmp -fno-tree-loop-distribute-patterns
$(VAL_OBJS) $(ASAN_VAL_OBJS) $(VAL_TEST_OBJS) $(ASAN_VAL_TEST_OBJS): \
	EXTRA_CFLAGS = $(VAL_KFLAGS) $(JSON_CFLAGS) -iquote ctests

$(B)/obj/validate/emu/%.o: validate/%.c
	@mkdir -p $(@D)
	$(COMPILE) -DKERN_EMU -c $< -o $@

$(B)/asan/obj/validate/emu/%.o: validate/%.c
	@mkdir -p $(@D)
	$(COMPILE) $(SANFLAGS) -DKERN_EMU -c $< -o $@

$(VALIDATE): $(VAL_OBJS) $(LIB_SO) $(SIM_SO)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $(VAL_OBJS) -L$(B)/lib $(SIM_LINK) -lpmon $(VAL_LIBS) $(ORIGIN_RPATH)

$(ASAN_VALIDATE): $(ASAN_VAL_OBJS) $(ASAN_LIB_SO) $(ASAN_SIM_SO)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -fopenmp -o $@ $(ASAN_VAL_OBJS) -L$(B)/asan/lib $(SIM_LINK) -lpmon $(VAL_LIBS) \
		-Wl,-rpath,$(TOP)/$(B)/asan/lib

$(B)/validate-tests/%: $(B)/obj/validate/tests/%.o $(VAL_LIBOBJS) $(LIB_SO) $(SIM_SO)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $< $(VAL_LIBOBJS) -L$(B)/lib $(SIM_LINK) -lpmon $(VAL_LIBS) \
		-Wl,-rpath,$(TOP)/$(B)/lib

$(B)/asan/validate-tests/%: $(B)/asan/obj/validate/tests/%.o $(ASAN_VAL_LIBOBJS) $(ASAN_LIB_SO) $(ASAN_SIM_SO)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -fopenmp -o $@ $< $(ASAN_VAL_LIBOBJS) -L$(B)/asan/lib $(SIM_LINK) -lpmon $(VAL_LIBS) \
		-Wl,-rpath,$(TOP)/$(B)/asan/lib

validate: lib $(VALIDATE)
	$(VALIDATE) --output $(B)/validate $(VALIDATE_ARGS)

# One breakage per event the suite checks (its event code changed as a wrong
# table entry would): each run must fail.  VALIDATE_ARGS as above (default:
# the quick suite on a small shape).
VALIDATE_BREAK_ARGS ?= --quick --shape cores=4,llc=2M,l1=16K,l2=64K --dgemm=128,256
validate-break: lib $(VALIDATE)
	PMON_VALIDATE_OUT=$(B)/validate-break sh validate/break-all.sh $(VALIDATE) $(VALIDATE_BREAK_ARGS)

# What make check / check-asan run of the suite: its unit tests, the short
# suite and the breakage test (validate/tests/test_vsuite.c, test_vshapes.c
# and test_vbreak.c run the program).
VAL_CHECK = --group -e PMON_VALIDATE=$(TOP)/$(VALIDATE) \
	-e PMON_VALIDATE_OUT=$(TOP)/$(B)/validate-check $(call longest_first,$(VAL_TESTS))
ASAN_VAL_CHECK = --group -e PMON_VALIDATE=$(TOP)/$(ASAN_VALIDATE) \
	-e PMON_VALIDATE_OUT=$(TOP)/$(B)/asan/validate-check $(call longest_first,$(ASAN_VAL_TESTS))

# Benchmarks of the kernels (bench/validate/*.c): native STREAM beside
# McCalpin's reference STREAM (compiled from ../shared/reference/stream at
# build time when it is there, never copied), pointer-chase ns per hop,
# DGEMM beside the system BLAS, and the emulated kernels' modeled accesses/s.
VBENCH_SRCS := $(sort $(wildcard bench/validate/*.c))
VBENCHES := $(VBENCH_SRCS:bench/validate/%.c=$(B)/bench/validate/%)
VBENCH_OBJS := $(VBENCH_SRCS:%.c=$(B)/obj/%.o)
MCCALPIN_SRC := $(wildcard ../shared/reference/stream/stream.c)
-include $(VBENCH_OBJS:.o=.d)
$(VBENCH_OBJS): EXTRA_CFLAGS = $(VAL_KFLAGS) -iquote bench \
	$(if $(MCCALPIN_SRC),-DHAVE_MCCALPIN)
# McCalpin's STREAM: the same flags as the native kernels, its main renamed,
# 3 passes a call (bench/validate/stream.c); its own warnings are its own
# (no -Werror).  Rebuilt when these flags change.  Its static arrays a, b, c
# renamed mccalpin_a/_b/_c and made global: the native kernels run on them.
$(B)/obj/bench/validate/mccalpin.o: $(MCCALPIN_SRC) Makefile
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -g -fPIC $(VAL_KFLAGS) \
		-DSTREAM_ARRAY_SIZE=20000000 -DNTIMES=3 -Dmain=mccalpin_main -w -c $< -o $@.tmp
	objcopy --redefine-sym a=mccalpin_a --redefine-sym b=mccalpin_b --redefine-sym c=mccalpin_c $@.tmp
	objcopy --globalize-symbol=mccalpin_a --globalize-symbol=mccalpin_b \
		--globalize-symbol=mccalpin_c $@.tmp $@
	rm -f $@.tmp
# Native benchmarks link the native kernels only.
VAL_NATIVE_KOBJS := $(VAL_KERN_SRCS:%.c=$(B)/obj/%.o)
$(B)/bench/validate/%: $(B)/obj/bench/validate/%.o $(VAL_NATIVE_KOBJS) \
		$(if $(MCCALPIN_SRC),$(B)/obj/bench/validate/mccalpin.o)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $< $(VAL_NATIVE_KOBJS) $(if $(MCCALPIN_SRC),$(B)/obj/bench/validate/mccalpin.o) \
		$(BLAS_LIBS) -lm
# The emulated kernels' benchmark feeds the emulated machine.
VAL_EMU_KOBJS := $(VAL_KERN_SRCS:validate/%.c=$(B)/obj/validate/emu/%.o)
$(B)/bench/validate/emu: $(B)/obj/bench/validate/emu.o $(B)/obj/validate/feed.o $(VAL_EMU_KOBJS) \
		$(LIB_SO) $(SIM_SO)
	@mkdir -p $(@D)
	$(CC) -fopenmp -o $@ $< $(B)/obj/validate/feed.o $(VAL_EMU_KOBJS) -L$(B)/lib $(SIM_LINK) -lpmon \
		$(VAL_LIBS) -Wl,-rpath,$(TOP)/$(B)/lib
bench-validate: lib $(VBENCHES)
	@$(if $(MCCALPIN_SRC),,echo "bench: McCalpin STREAM reference skipped: ../shared/reference/stream/stream.c is absent")
	@for b in $(VBENCHES); do echo "=== $$b"; $$b || exit 1; done

# ------------------------------------------------------------------ install
# Everything is staged under $(STAGE)$(PREFIX) first (pmon's files and
# PAPI's own install), listed in share/pmon/installed-files, then copied to
# $(DESTDIR)$(PREFIX).  make uninstall with the same PREFIX and DESTDIR
# removes exactly the files listed, then the directories left empty.
PREFIX ?= /usr/local
INST = $(DESTDIR)$(PREFIX)
STAGE = $(TOP)/$(B)/stage
SROOT = $(STAGE)$(PREFIX)
MANIFEST = share/pmon/installed-files
MAN_PAGES := $(sort $(wildcard doc/man/*.[0-9]))

install: all
	rm -rf $(STAGE)
	install -d $(SROOT)/lib/pkgconfig $(SROOT)/include/pmon $(SROOT)/bin $(SROOT)/share/pmon \
		$(addprefix $(SROOT)/share/man/man,$(sort $(patsubst .%,%,$(suffix $(MAN_PAGES)))))
	install -m 755 $(LIB_SO) $(SROOT)/lib/
	ln -sf $(notdir $(LIB_SO)) $(SROOT)/lib/$(SONAME)
	ln -sf $(SONAME) $(SROOT)/lib/libpmon.so
	install -m 755 $(SIM_SO) $(SROOT)/lib/
	ln -sf $(notdir $(SIM_SO)) $(SROOT)/lib/$(SIM_SONAME)
	ln -sf $(SIM_SONAME) $(SROOT)/lib/libpmon-sim.so
	install -m 644 $(LIB_A) $(SROOT)/lib/
	install -m 644 include/pmon/*.h $(SROOT)/include/pmon/
	$(if $(TOOLS),install -m 755 $(TOOLS) $(SROOT)/bin/)
	for pc in libpmon libpmon-static; do \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(LIBVER)|' -e '/^#/d' $$pc.pc.in \
			>$(SROOT)/lib/pkgconfig/$$pc.pc || exit 1; done
	for m in $(MAN_PAGES); do install -m 644 $$m $(SROOT)/share/man/man$${m##*.}/; done
	$(PAPI_MAKE) install DESTDIR=$(STAGE) $(call PAPI_DIRS,$(PREFIX)) $(papi_quiet)
	@# papi.pc names the build-time prefix; a static link also needs libpmon.
	for f in $(SROOT)/lib/pkgconfig/papi-*.pc; do \
		test -L "$$f" || ! test -f "$$f" || sed -i -e 's|^prefix=.*|prefix=$(PREFIX)|' \
			-e 's|^Libs.private:.*|& -lpmon $(PKG_LIBS)|' "$$f"; done
	{ cd $(SROOT) && find . ! -type d | sed 's|^\./||' && echo $(MANIFEST); } | sort >$(STAGE).list
	mv $(STAGE).list $(SROOT)/$(MANIFEST)
	install -d $(INST)
	cp -a $(SROOT)/. $(INST)/
	rm -rf $(STAGE)
	@echo "installed into $(INST) ($$(wc -l <$(INST)/$(MANIFEST)) files, listed in $(INST)/$(MANIFEST))"
	@# PAPI's libpapi.so.7.0 carries Debian's soname: where the dynamic
	@# loader searches $(PREFIX)/lib (ld.so.conf: /usr/local/lib on Debian),
	@# it is loaded in place of Debian's libpapi by every program using PAPI.
	@if grep -qsx '$(PREFIX)/lib' /etc/ld.so.conf /etc/ld.so.conf.d/*.conf || \
	    [ '$(PREFIX)' = /usr ]; then \
		echo "warning: $(PREFIX)/lib/libpapi.so.7.0 has the soname of Debian's PAPI (libpapi.so.7.0)" \
			"and $(PREFIX)/lib is in the dynamic loader's path: programs linked with Debian's" \
			"libpapi will load this one (with the pmon component) instead.  To keep them apart," \
			"install into a prefix of its own (make install PREFIX=/opt/pmon) and run with" \
			"LD_LIBRARY_PATH=/opt/pmon/lib where pmon's PAPI is wanted." >&2; fi

uninstall:
	@test -f $(INST)/$(MANIFEST) || { echo "uninstall: no $(INST)/$(MANIFEST): nothing installed there by make install" >&2; exit 1; }
	cd $(INST) && files=$$(cat $(MANIFEST)) && \
		for f in $$files; do rm -f "$$f"; done && \
		for f in $$files; do d=$$(dirname "$$f"); \
			while [ "$$d" != . ] && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; done
	@echo "uninstalled from $(INST)"

# -------------------------------------------------------------------- clean
clean-pmon:
	rm -rf $(B)/obj $(B)/asan $(B)/ctests $(B)/ptests $(B)/lib/libpmon.* $(TOOLS)

# Everything but the download cache (and config.mk).
clean: clean-pmon
	rm -rf $(PAPI_DIR) $(PAPI_DIR).tmp $(B)/lib $(B)/bin $(B)/include $(B)/share \
		$(B)/*.id

# ./configure (as root, when PAPI's source package had to be fetched) may
# have added deb-src entries to apt's sources: they go too.
distclean:
	rm -rf $(B) config.mk
	@sh tools/build/apt-deb-src.sh --remove

help:
	@sed -n '3,/^[^#]/s/^# \{0,1\}//p' Makefile
