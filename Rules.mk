# Rules.mk - compiler, flags and compile rules shared by everything pmon
# builds itself (libpmon, tools, tests).  PAPI's sources are built by PAPI's
# own makefiles with PAPI's own flags; none of these apply there.
#
# Objects go to $(B)/obj/<source path>.o, and the sanitizer build's to
# $(B)/asan/obj/<source path>.o; each gets a .d dependency file beside it.

B ?= build

# config.mk (from ./configure) normally sets CC; make's built-in "cc" is the
# fallback.
CC ?= cc

# src/ is a quote-only include directory: its headers are included as
# "name.h", and this keeps a header of pmon's from hiding a system header of
# the same name (<sched.h> from <pthread.h>, for one).
CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -fno-semantic-interposition -Iinclude -iquote src
# C11 with POSIX.1-2008 (setenv, pread, ...).  A file that needs more
# defines _GNU_SOURCE itself, which includes this.
CPPFLAGS = -D_POSIX_C_SOURCE=200809L
DEPFLAGS = -MMD -MP
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer

# Per-target additions (e.g. include paths of the PAPI-level tests), and a
# per-target optimisation level (OPT_CFLAGS: the emulator's access path),
# apart so that EXTRA_CFLAGS=... on the command line does not drop it.
EXTRA_CFLAGS ?=
OPT_CFLAGS ?=

# JSON_CFLAGS: jansson, used by the pmon tool and the tests (never libpmon).
COMPILE = $(CC) $(CPPFLAGS) $(CFLAGS) $(OPT_CFLAGS) $(PKG_CFLAGS) $(JSON_CFLAGS) $(EXTRA_CFLAGS) \
	  $(DEPFLAGS)

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(COMPILE) -c $< -o $@

$(B)/asan/obj/%.o: %.c
	@mkdir -p $(@D)
	$(COMPILE) $(SANFLAGS) -c $< -o $@
