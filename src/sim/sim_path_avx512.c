/*
 * sim_path_avx512.c - the access path for machines of two sockets whose
 * L1 and L2 are 8-way (the default shape, the Nehalem shapes; these counts
 * constants, their set loops unrolled; the LLC's any, its 20 and 16 ways
 * with kernels of their own), compiled for AVX-512 (a set's lanes compared
 * and shifted eight at a time, written back with full stores).
 * sim_cache.c runs it for such a machine on a host with AVX-512F; every
 * other machine, and every machine on another host, runs sim_path_base.c.
 */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("avx512f,bmi,bmi2,popcnt")
#endif
#define SIM_PATH_LINES sim_lines_avx512
#define SIM_PATH_DEFAULT
#include "sim_path.h"
