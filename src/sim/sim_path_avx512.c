/*
 * sim_path_avx512.c - the access path compiled for AVX-512 (a set's lanes
 * compared and shifted eight at a time, written back with full stores); sim_cache.c runs it where the host
 * has AVX-512F.
 */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("avx512f,bmi,bmi2,popcnt")
#endif
#define SIM_PATH_LINES sim_lines_avx512
#include "sim_path.h"
