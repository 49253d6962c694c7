/*
 * sim_load.h - the "sim" backend's way to the emulated machine, which is a
 * library of its own (libpmon-sim, src/sim/): libpmon loads it when a
 * machine is opened with the sim backend, or when the catalogue asks which
 * events the emulator models, and never otherwise.
 *
 * The library is taken from one place only: the file
 * libpmon-sim.so.<pmon.h's version> in the directory libpmon itself was
 * loaded from; no environment variable names it.  When pmon runs as root or
 * with privileges its real user has not, that file and its directory must
 * belong to root (or the effective user) and be writable by no one else.
 * libpmon.a (a static link) holds the emulator and calls it directly.
 */
#ifndef PMON_SIM_LOAD_H
#define PMON_SIM_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "access.h"

#pragma GCC visibility push(hidden)     /* libpmon's own, not exported */

/* pmon_sim_access_open of the emulator's library (loaded at the first call;
 * an error names the file and why it could not be loaded). */
int pmon_sim_load_open(struct pmon_access **out, char *why, size_t whylen);
/* Its ops' event_modeled with no machine (1 modeled, 0 not, or the library
 * could not be loaded: then nothing is modeled). */
int pmon_sim_load_modeled(const char *box_type, uint64_t ctl, const uint64_t filt[2]);

#pragma GCC visibility pop

#endif
