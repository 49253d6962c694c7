/*
 * sim_floor_avx2.c - bench/sim_floor.c built for AVX2: the set operations of
 * the emulator's AVX2 copy of its access path, alone.  Says so and does
 * nothing on a host without AVX2 (the emulator runs another copy there).
 */
#include <stdio.h>

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,popcnt")
#define SIM_FLOOR_COPY "copy: AVX2"
#define SIM_FLOOR_MAIN floor_main
#include "sim_floor.c"
#pragma GCC pop_options

int main(void)
{
	if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))) {
		printf("bench sim_floor_avx2: this host has no AVX2: nothing to measure\n");
		return 0;
	}
	return floor_main();
}
