/*
 * vsetup.c - opening the machine the suite runs on and picking the kernel
 * threads' CPUs (vrun.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrun.h"

/* Drop libpmon's advice to set PMON_BACKEND=sim from a hardware refusal:
 * here the suite falls back to the emulated machine by itself. */
static void drop_sim_advice(char *why)
{
	static const char *const advice[] = { "; or set PMON_BACKEND=sim", "; set PMON_BACKEND=sim" };
	for (size_t i = 0; i < sizeof(advice) / sizeof(advice[0]); i++) {
		char *p = strstr(why, advice[i]);
		if (p)
			*p = 0;
	}
}

/* Open the machine: the hardware, or the emulated machine of the shape.
 * Returns 0, or 2 after saying why. */
int vopen_backend(struct vctx *c)
{
	char why[512], hwwhy[512] = "", note[256];
	const char *b = c->o.backend;

	if (strcmp(b, "auto") == 0 || strcmp(b, "msr") == 0) {
		if (pmon_machine_open(&c->m, "msr", hwwhy, sizeof(hwwhy)) == 0) {
			c->hw = 1;
			vgeom_from_hw(c->m, &c->g);
			return 0;
		}
		drop_sim_advice(hwwhy);
		if (strcmp(b, "msr") == 0) {
			fprintf(stderr, "pmon-validate: the hardware backend (msr) is not usable: %s\n"
				"pmon-validate: --backend=sim or PMON_BACKEND=sim runs the suite on the "
				"emulated machine\n", hwwhy);
			return 2;
		}
	}
	/* The emulated machine; time follows the wall clock, so that clocks
	 * and elapsed time agree as on silicon. */
	const char *src = c->o.shape ? "--shape" : "$PMON_SIM";
	const char *spec = c->o.shape ? c->o.shape : getenv("PMON_SIM");
	c->shape_spec = spec;
	c->shape_src = spec ? src : "default";
	struct pmon_sim_shape shape;
	if (vshape_screen(spec, src, &shape, note, sizeof(note), why, sizeof(why)) != 0) {
		fprintf(stderr, "pmon-validate: %s\n", why);
		return 2;
	}
	if (note[0])
		vnote(c, "%s", note);
	c->sim = pmon_sim_create(&shape);
	if (!c->sim) {
		fprintf(stderr, "pmon-validate: cannot create the emulated machine (out of memory)\n");
		return 2;
	}
	pmon_sim_set_current(c->sim);
	if (pmon_machine_open(&c->m, "sim", why, sizeof(why)) != 0) {
		fprintf(stderr, "pmon-validate: neither backend is usable.\n  hardware: %s\n  emulated: %s\n",
			hwwhy[0] ? hwwhy : "not tried", why);
		return 2;
	}
	vgeom_from_sim(c->sim, &c->g);
	if (strcmp(b, "auto") == 0)
		fprintf(stderr, "pmon-validate: using the emulated machine (hardware not usable: %s)\n", hwwhy);
	return 0;
}

int vpick_cpus(struct vctx *c)
{
	int want = c->o.threads, s = c->o.socket;
	int remote = c->o.remote >= 0 ? c->o.remote : (s + 1) % (c->g.sockets > 0 ? c->g.sockets : 1);
	if (s >= c->g.sockets || remote >= c->g.sockets) {
		fprintf(stderr, "pmon-validate: socket %d / remote %d: the machine has %d socket(s)\n", s,
			remote, c->g.sockets);
		return -1;
	}
	if (c->sim) {
		const struct pmon_sim_shape *sh = pmon_sim_shape(c->sim);
		if (want > sh->cores) {
			fprintf(stderr, "pmon-validate: --threads=%d: socket has %d cores\n", want, sh->cores);
			return -1;
		}
		for (int t = 0; t < want; t++) {
			c->cpus[t] = pmon_sim_cpu_of(sh, s, t, 0);
			c->rcpus[t] = pmon_sim_cpu_of(sh, remote, t, 0);
		}
	} else {
		int n = 0, nr = 0, ncpu = pmon_machine_ncpus(c->m);
		for (int cpu = 0; cpu < ncpu && (n < want || nr < want); cpu++) {
			int cs = pmon_machine_cpu_socket(c->m, cpu);
			if (cs == s && n < want)
				c->cpus[n++] = cpu;
			else if (cs == remote && nr < want)
				c->rcpus[nr++] = cpu;
		}
		if (n < want) {
			fprintf(stderr, "pmon-validate: --threads=%d: socket %d has %d CPUs\n", want, s, n);
			return -1;
		}
	}
	c->nthreads = want;
	if (c->o.cpus) {
		char buf[512], *save = NULL;
		int n = 0;
		snprintf(buf, sizeof(buf), "%s", c->o.cpus);
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			char *end;
			long cpu = strtol(t, &end, 10);
			int ncpu = c->sim ? pmon_sim_ncpus(pmon_sim_shape(c->sim)) : pmon_machine_ncpus(c->m);
			if (*end || cpu < 0 || cpu >= ncpu || n == 64) {
				fprintf(stderr, "pmon-validate: --cpus: '%s' is not a CPU of this machine (0..%d)\n",
					t, ncpu - 1);
				return -1;
			}
			int cs = c->sim ? -1 : pmon_machine_cpu_socket(c->m, (int)cpu);
			if (c->sim)
				pmon_sim_cpu_place(pmon_sim_shape(c->sim), (int)cpu, &cs, NULL, NULL);
			if (cs != s) {
				fprintf(stderr, "pmon-validate: --cpus: CPU %ld is on socket %d, not the local socket %d\n",
					cpu, cs, s);
				return -1;
			}
			c->cpus[n] = (int)cpu;
			/* The remote socket's CPU of the same core and thread. */
			if (c->sim) {
				const struct pmon_sim_shape *sh = pmon_sim_shape(c->sim);
				int core = 0, thr = 0;
				pmon_sim_cpu_place(sh, (int)cpu, NULL, &core, &thr);
				c->rcpus[n] = pmon_sim_cpu_of(sh, remote, core, thr);
			}
			n++;
		}
		if (n == 0) {
			fprintf(stderr, "pmon-validate: --cpus: empty list\n");
			return -1;
		}
		c->nthreads = n;
	}
	return 0;
}

