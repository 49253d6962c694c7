/*
 * sim_traffic.h - memory traffic into the emulated hierarchy: the traffic
 * calls, the load= and noise= streams, the hierarchy's entry points and
 * where a line lives (home socket, LLC slice).
 */
#ifndef PMON_SIM_TRAFFIC_H
#define PMON_SIM_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "sim_machine.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

/* ---- memory traffic ---- */
/* count line accesses from addr on (lines checked to exist), lock held. */
void sim_traffic_lines(struct pmon_sim *sim, int cpu, uint64_t addr,
		       enum pmon_sim_kind kind, uint64_t count);
/* The load= stream: issue the lines due after wall_ns of followed time. */
void sim_load_run(struct pmon_sim *sim, uint64_t wall_ns);
void sim_noise_run(struct pmon_sim *sim);
void sim_dram_init(struct sim_chan *ch);
void sim_dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
		     struct pmon_sim_dram_loc *out);

/* ---- the memory hierarchy (sim_cache.c, sim_path.h, sim_mem.c) ---- */
int sim_hier_init(struct pmon_sim *sim);
void sim_hier_free(struct pmon_sim *sim);
/* n line accesses by cpu, lock held: ref[i] = line << 2 | kind (line =
 * physical address / 64).  The sets of the access SIM_LOOKAHEAD ahead are
 * brought into the host caches (no effect on the model). */
void sim_lines_access(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n);
#define SIM_LOOKAHEAD 8
/* References translated per sim_lines_access call (1024: the batch-end
 * flush of the tallies costs a few references; 8 KiB of stack). */
#define SIM_BATCH 1024
/* One access of a rare kind (sim_special.c) to line (physical) and, for a
 * split lock, next: its second line.  0, or PMON_EINVAL (a partial streaming store
 * to another socket's memory: nothing done). */
int sim_special_access(struct pmon_sim *sim, int cpu, uint64_t line, uint64_t next,
		       enum pmon_sim_kind kind);
/* A partial streaming store of cpu to line at its own socket's memory
 * (sim_path_base.c: the streaming store's path). */
void sim_nt_partial(struct pmon_sim *sim, int cpu, uint64_t line);
/* Drop every cached copy of a line, in every socket, without a write-back. */
void sim_line_discard(struct pmon_sim *sim, uint64_t line);
void sim_flush(struct pmon_sim *sim);
void sim_frames_init(struct sim_frames *f, uint64_t nframes, int socket);
void sim_mem_free_all(struct pmon_sim *sim);
static inline int sim_line_home(const struct pmon_sim *sim, uint64_t line)
{
	return sim->lps_shift >= 0 ? (int)(line >> sim->lps_shift)
				   : (int)(line / sim->lines_per_socket);
}
static inline unsigned sim_line_slice(uint64_t line, int cores)
{
	uint64_t h = (line * 0x9E3779B97F4A7C15ull) >> 32;
	return (unsigned)((h * (uint64_t)cores) >> 32);
}

#pragma GCC visibility pop

#endif
