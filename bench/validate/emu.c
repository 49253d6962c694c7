/*
 * emu.c - the emulated kernels' speed: line references modeled per second
 * when the validation kernels (validate/kern_*.c built with -DKERN_EMU)
 * feed the emulated machine (default shape), one thread: STREAM Triad over
 * arrays of 4 x LLC, the pointer chase over an LLC-sized and a memory-sized
 * set, and the blocked DGEMM.  Also the kernels' own host time without the
 * model (feed buffer dropped) to show the model's share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmon/sim.h>

#include "bench.h"
#include "../../validate/kern.h"

static pmon_sim_t *sim;

static int arr(struct karr *a, size_t bytes)
{
	a->host = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
	a->bytes = bytes;
	memset(a->host, 0, bytes);
	return a->host && pmon_sim_mem_alloc(sim, bytes, PMON_SIM_ON_SOCKET, 0, &a->vbase) == 0 ? 0 : -1;
}

static void row(const char *what, struct kfeed *f, uint64_t ns, uint64_t refs)
{
	(void)f;
	printf("%-30s %12llu %10.3f %14.1f\n", what, (unsigned long long)refs, ns * 1e-9,
	       refs / (ns * 1e-9) * 1e-6);
}

int main(void)
{
	struct pmon_sim_shape shape;
	char err[256];
	if (pmon_sim_shape_parse("", &shape, err, sizeof(err)) != 0 || !(sim = pmon_sim_create(&shape))) {
		fprintf(stderr, "emu: %s\n", err);
		return 1;
	}
	struct kfeed *f = malloc(sizeof(*f));
	size_t n = (size_t)(4 * shape.llc_bytes / 8);
	struct karr a, b, c;
	if (!f || arr(&a, n * 8) || arr(&b, n * 8) || arr(&c, n * 8)) {
		fprintf(stderr, "emu: out of memory\n");
		return 1;
	}
	printf("emulated kernels feeding the default machine (LLC %llu MiB), one thread\n",
	       (unsigned long long)(shape.llc_bytes >> 20));
	printf("%-30s %12s %10s %14s\n", "kernel", "references", "seconds", "M refs/s");

	kfeed_init(f, sim, 0);
	stream_init_emu(f, &a, 1, 0, n);
	stream_init_emu(f, &b, 2, 0, n);
	stream_init_emu(f, &c, 0, 0, n);
	kfeed_flush(f);
	kfeed_init(f, sim, 0);
	uint64_t t0 = bench_ns();
	stream_triad_emu(f, &a, &b, &c, 3.0, 0, n, 0);
	row("STREAM triad (4 x LLC, misses)", f, bench_ns() - t0, f->fed);
	kfeed_init(f, NULL, 0);
	t0 = bench_ns();
	stream_triad_emu(f, &a, &b, &c, 3.0, 0, n, 0);
	row("  same, feed dropped (host)", f, bench_ns() - t0, f->fed);

	/* Chase: a strided cycle is enough to time the model (the suite's
	 * own chase is random; the model's cost per reference is the same). */
	size_t sets[2] = { shape.llc_bytes / 4, shape.llc_bytes * 4 };
	const char *names[2] = { "chase LLC/4 (LLC hits)", "chase 4 x LLC (misses)" };
	for (int s = 0; s < 2; s++) {
		struct karr x;
		size_t m = sets[s] / 64;
		if (arr(&x, sets[s]))
			return 1;
		struct chase_el *e = x.host;
		/* One cycle: a stride of 7919 lines (odd) over a power-of-two set. */
		for (size_t i = 0; i < m; i++)
			e[i].next = &e[(i + 7919) % m];
		kfeed_init(f, sim, 0);
		chase_emu(f, &x, e, m);                 /* warm-up */
		kfeed_init(f, sim, 0);
		t0 = bench_ns();
		chase_emu(f, &x, e, m);
		row(names[s], f, bench_ns() - t0, f->fed);
		pmon_sim_mem_free(sim, x.vbase);
		free(x.host);
	}

	size_t dn = 512;
	struct karr da, db, dc;
	if (arr(&da, dn * dn * 8) || arr(&db, dn * dn * 8) || arr(&dc, dn * dn * 8))
		return 1;
	kfeed_init(f, sim, 0);
	t0 = bench_ns();
	dgemm_blocked_emu(f, &dc, &da, &db, dn, 64, 0, dn, 0, dn);
	row("DGEMM n=512 (mostly L1/L2 hits)", f, bench_ns() - t0, f->fed);
	free(f);
	pmon_sim_destroy(sim);
	return 0;
}
