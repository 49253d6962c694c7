/*
 * sim_path_avx2.c - the access path compiled for AVX2 (a set's lanes
 * compared and shifted four at a time); sim_cache.c runs it where the host has AVX2
 * but not AVX-512F.
 */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("avx2,bmi,bmi2,popcnt")
#endif
#define SIM_PATH_LINES sim_lines_avx2
#include "sim_path.h"
