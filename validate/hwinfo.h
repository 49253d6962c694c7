/*
 * hwinfo.h - the machine's identity and the settings that decide what a
 * count means, read before the kernels run and written in report.json
 * ("hardware"): the prefetchers (MSR 0x1A4 on each CPU of the run, and
 * what the run did with them), turbo (IA32_MISC_ENABLE bit 38,
 * MSR_TURBO_RATIO_LIMIT), the base frequency (MSR_PLATFORM_INFO), the
 * package C-state limit (MSR_PKG_CST_CONFIG_CONTROL), the cores' cpufreq
 * and cpuidle settings (sysfs), the microcode (/proc/cpuinfo), the kernel
 * (uname) and the clocks the suite knows.  MSRs are read through the
 * opened machine (the emulated machine answers for its own registers or
 * refuses with a reason); a value that cannot be read is recorded with
 * why, never guessed.  The host's cpufreq, cpuidle and microcode are not
 * the emulated machine's: recorded only on the hardware.  The clocks
 * measured, when the run measured them, as "clocks_measured".
 */
#ifndef PMON_VALIDATE_HWINFO_H
#define PMON_VALIDATE_HWINFO_H

#include <stdint.h>

#include <jansson.h>
#include <pmon/pmon.h>

#include "geom.h"
#include "vprefetch.h"

struct vmsr_read {
	uint32_t msr;
	int ok;
	uint64_t val;
	char why[160];
};

struct vfreq {
	int cpu;
	long cur_khz, min_khz, max_khz;   /* -1: unreadable */
	char governor[32];
};

/* The clocks a run measures when their frequency is not known (on the
 * hardware: the PCU's 800 MHz is documented, the others are not): each
 * one's count over a window of the machine's time (exp_clock.c). */
enum { VCLK_UCLK, VCLK_DCLK, VCLK_QCLK, VCLK_N };
struct vclkm {
	int measured;                     /* 1: the run measured them */
	double sec;                       /* the window's machine time */
	double tol;                       /* relative uncertainty of each frequency */
	uint64_t count[VCLK_N];
	double hz[VCLK_N];                /* count / sec as recorded (UCLK 10% high with
					     --break=clock) */
	int used[VCLK_N];                 /* 1: hz taken as the clock's frequency, else why */
	int broken;                       /* --break=clock */
	char why[VCLK_N][200];
};

struct vhwinfo {
	int hw;
	char kernel[400];                 /* uname: sysname release version machine */
	char microcode[32];               /* "" unknown */
	char cpu[96];
	int cpu0;                         /* the CPU the socket-wide MSRs were read on */
	struct vmsr_read misc_enable, turbo_limit, platform_info, cst_config;
	int nfreq;
	struct vfreq freq[16];
	char idle[256];                   /* the first CPU's cpuidle states "C1 on, C6 off"; "" unknown */
	char idle_why[128];
	struct vclkm clk;                 /* the clocks measured (vclock_measure) */
};

/* Read it all for the CPUs cpus[0..n) of the run; sysfs_cpu (default
 * "/sys/devices/system/cpu") and cpuinfo (default "/proc/cpuinfo") may
 * point at fake files. */
void vhwinfo_read(struct vhwinfo *h, pmon_machine_t *m, int hw, const int *cpus, int n,
		  const char *sysfs_cpu, const char *cpuinfo);
/* The "hardware" object of report.json, with the prefetchers' state pf
 * (read, switched off by --prefetch=off) and the clocks of g. */
json_t *vhwinfo_json(const struct vhwinfo *h, const struct vpf *pf, const struct vgeom *g);

#endif
