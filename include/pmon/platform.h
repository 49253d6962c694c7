/*
 * platform.h - the machine's settings that decide what a count means,
 * read from its model-specific registers through the opened machine's
 * backend (the hardware's MSR files, or the emulated machine's registers,
 * which refuse with a reason what they do not model).
 *
 * These are not PMON registers: pmon reads them, and writes none of them
 * but the prefetchers' control (MISC_FEATURE_CONTROL, 0x1A4), and that one
 * only when a caller asks for it explicitly (pmon_machine_prefetch_write,
 * e.g. pmon-validate --prefetch=off): it is the one exception to "pmon
 * never writes a register outside the documented PMON set".  A caller that
 * changes it puts the original value back.
 */
#ifndef PMON_PLATFORM_H
#define PMON_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "pmon/pmon.h"

#define PMON_MSR_PLATFORM_INFO      0xCEu   /* bits 15:8 the base (non-turbo) ratio */
#define PMON_MSR_PKG_CST_CONFIG     0xE2u   /* bits 2:0 the package C-state limit */
#define PMON_MSR_MISC_ENABLE        0x1A0u  /* bit 38: turbo disengaged */
#define PMON_MSR_MISC_FEATURE_CTL   0x1A4u  /* bits 0-3: a prefetcher off (set) */
#define PMON_MSR_TURBO_RATIO_LIMIT  0x1ADu  /* byte n: max ratio with n + 1 cores active */

/* MSR 0x1A4's prefetcher bits: set, that prefetcher is off. */
#define PMON_PF_L2_STREAMER   0x1u
#define PMON_PF_L2_ADJACENT   0x2u
#define PMON_PF_DCU_NEXT      0x4u
#define PMON_PF_DCU_IP        0x8u
#define PMON_PF_ALL           0xFu

/* Read one of the platform MSRs above on CPU cpu.  Any other address is
 * refused (PMON_EINVAL, nothing read).  PMON_OK or an error with why. */
int pmon_machine_platform_read(pmon_machine_t *m, int cpu, uint32_t msr, uint64_t *val,
			       char *why, size_t whylen);

/* Set MSR 0x1A4's prefetcher bits (0-3) of CPU cpu to bits, keeping its
 * other bits as they are (read, then written only if different).  bits
 * beyond 0-3 are refused (PMON_EINVAL, nothing written).  On the hardware
 * the change is journaled before it is written, in the journal of the
 * CPU's socket (box "prefetch": the original bits and those written), and
 * the line goes when the original bits are written back, so that
 * `pmon reset` restores the prefetchers after a kill -9; a change that
 * cannot be journaled is not made.  With why NULL (a signal handler's
 * call) the journal is left alone: the read and the write alone are
 * async-signal-safe, and the line left names the original, which reset
 * then finds there.  PMON_OK or an error with why. */
int pmon_machine_prefetch_write(pmon_machine_t *m, int cpu, unsigned bits, char *why,
				size_t whylen);

#endif
