/*
 * sim_traffic.c - memory traffic by physical address: each cache-line
 * access goes through the issuing core's caches (sim_cache.c), and what
 * misses them through the LLC, the home agents and QPI to DRAM
 * (sim_llc_path.h).  The load= stream (run while time follows the wall clock)
 * and the noise= trickle (run whenever emulated time moves) take the same
 * path, line by line.
 */
#include <string.h>

#include "sim_clock.h"
#include "sim_traffic.h"
#include "sim_events.h"

void sim_traffic_lines(struct pmon_sim *sim, int cpu, uint64_t addr,
		       enum pmon_sim_kind kind, uint64_t count)
{
	uint64_t line = addr / 64, ref[SIM_BATCH];

	for (uint64_t i = 0; i < count;) {
		size_t k = 0;
		for (; k < SIM_BATCH && i < count; k++, i++)
			ref[k] = (line + i) << 2 | (uint64_t)kind;
		sim_lines_access(sim, cpu, ref, k);
	}
}

int pmon_sim_traffic(pmon_sim_t *sim, int cpu, uint64_t addr, enum pmon_sim_kind kind,
		     uint64_t count)
{
	uint64_t total, line = addr & ~63ull;
	int rc = 0;

	sim_lock(sim);
	sim_clock_take(sim);        /* even a refused call takes control (auto) */
	total = sim->shape.mem_bytes * (uint64_t)sim->shape.sockets;
	int lock = kind == PMON_SIM_SPLIT_LOCK;   /* also reaches the line after the last */

	if ((unsigned)kind > PMON_SIM_SPLIT_LOCK)
		rc = PMON_EINVAL;
	else if (cpu < 0 || cpu >= sim->ncpus)
		rc = PMON_EINVAL;
	else if (count && (line >= total || count - 1 + lock > (total - 1 - line) / 64))
		rc = PMON_ERANGE;            /* some line beyond the memory */
	else if (kind > PMON_SIM_NT_STORE)
		for (uint64_t i = 0; !rc && i < count; i++)
			rc = sim_special_access(sim, cpu, line / 64 + i, line / 64 + i + 1, kind);
	else
		sim_traffic_lines(sim, cpu, line, kind, count);
	sim_pend_flush(sim);
	sim_unlock(sim);
	return rc;
}

/* The load= stream: line n of it (counting from 0 at creation) is a LOAD by
 * CPU 0 of socket 0's line n mod (mem_bytes / 64). */
void sim_load_run(struct pmon_sim *sim, uint64_t wall_ns)
{
	uint64_t per = sim->shape.mem_bytes / 64;
	/* wall_ns < 2^64 and load <= PMON_SIM_LOAD_MAX < 6.4e10: fits 64 bits */
	uint64_t due = (uint64_t)((unsigned __int128)wall_ns * sim->shape.load_bps /
				  64000000000u);

	while (sim->load_lines < due) {
		uint64_t pos = sim->load_lines % per, n = due - sim->load_lines;

		if (n > per - pos)
			n = per - pos;
		sim_traffic_lines(sim, 0, pos * 64, PMON_SIM_LOAD, n);
		sim->load_lines += n;
	}
	sim_pend_flush(sim);              /* the caller reads registers next */
}

/* The noise= trickle (include/pmon/sim.h): bring every socket's lines up to
 * floor(now_ns * noise / 64e9), issued by the socket's first logical CPU. */
void sim_noise_run(struct pmon_sim *sim)
{
	uint64_t half = sim->shape.mem_bytes / 128;   /* lines in each half */
	/* now_ns < 2^64 and noise <= PMON_SIM_LOAD_MAX < 6.4e10: fits 64 bits */
	uint64_t due = (uint64_t)((unsigned __int128)sim->now_ns * sim->shape.noise_bps /
				  64000000000u);

	for (int s = 0; s < sim->shape.sockets; s++) {
		uint64_t base = (uint64_t)s * (sim->shape.mem_bytes / 64), ref[SIM_BATCH];
		int cpu = 0;

		while (cpu < sim->ncpus && sim->cpu[cpu].sock != s)
			cpu++;
		if (cpu == sim->ncpus)
			continue;
		for (uint64_t n = sim->noise_lines; n < due;) {
			size_t k = 0;
			for (; k < SIM_BATCH && n < due; k++, n++) {
				uint64_t at = (n / 2) % half;
				ref[k] = n % 2 ? (base + half + at) << 2 | PMON_SIM_NT_STORE
					       : (base + at) << 2 | PMON_SIM_LOAD;
			}
			sim_lines_access(sim, cpu, ref, k);
		}
	}
	if (due > sim->noise_lines)
		sim->noise_lines = due;
	sim_pend_flush(sim);
}

void pmon_sim_cpu_truth(const pmon_sim_t *sim, int cpu, struct pmon_sim_cpu_truth *out)
{
	memset(out, 0, sizeof *out);
	if (cpu < 0 || cpu >= sim->ncpus)
		return;
	sim_lock(sim);
	*out = sim->cpu[cpu].truth;
	sim_unlock(sim);
}

int pmon_sim_cache_truth(const pmon_sim_t *sim, int cpu, struct pmon_sim_cache_truth *out)
{
	memset(out, 0, sizeof *out);
	if (!sim || cpu < 0 || cpu >= sim->ncpus)
		return PMON_EINVAL;
	sim_lock(sim);
	*out = sim->cpu[cpu].ctruth;
	sim_unlock(sim);
	return 0;
}

int pmon_sim_slice_truth(const pmon_sim_t *sim, int socket, int slice,
			 struct pmon_sim_slice_truth *out)
{
	memset(out, 0, sizeof *out);
	if (!sim || socket < 0 || socket >= sim->shape.sockets || slice < 0 ||
	    slice >= sim->shape.cores)
		return PMON_EINVAL;
	sim_lock(sim);
	*out = sim->sock[socket].slice_truth[slice];
	sim_unlock(sim);
	return 0;
}

int pmon_sim_ha_truth(const pmon_sim_t *sim, int socket, struct pmon_sim_ha_truth *out)
{
	memset(out, 0, sizeof *out);
	if (!sim || socket < 0 || socket >= sim->shape.sockets)
		return PMON_EINVAL;
	sim_lock(sim);
	*out = sim->sock[socket].ha_truth;
	sim_unlock(sim);
	return 0;
}

int pmon_sim_qpi_truth(const pmon_sim_t *sim, int socket, int link,
		       struct pmon_sim_qpi_truth *out)
{
	memset(out, 0, sizeof *out);
	if (!sim || socket < 0 || socket >= sim->shape.sockets || link < 0 || link > 1)
		return PMON_EINVAL;
	sim_lock(sim);
	*out = sim->sock[socket].qpi_truth[link];
	sim_unlock(sim);
	return 0;
}

int pmon_sim_llc_slice(const pmon_sim_t *sim, uint64_t paddr)
{
	if (!sim)
		return PMON_EINVAL;
	return (int)sim_line_slice(paddr / 64, sim->shape.cores);
}
