/*
 * sim_path.h - the access path of the memory hierarchy, everything one line
 * access runs: the cores' caches (sim_core_path.h), then the LLC slices,
 * home agents, QPI and DRAM (sim_llc_path.h).  Its functions are static:
 * each file that includes it compiles its own copy and defines
 * SIM_PATH_LINES, the name of its copy's entry (a sim_lines_fn,
 * sim_hier.h).  There are two: sim_path_base.c for any shape on any
 * x86-64, sim_path_avx512.c for two sockets with 8-way L1 and L2 on
 * AVX-512 (SIM_PATH_DEFAULT: those counts are constants, sim_hier.h).
 */
#ifndef PMON_SIM_PATH_H
#define PMON_SIM_PATH_H

#ifndef SIM_PATH_LINES
#error "define SIM_PATH_LINES, the name of this copy's entry, before including sim_path.h"
#endif

#include "sim_core_path.h"

#endif
