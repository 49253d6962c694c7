/*
 * main.c - pmon-validate: run the validation kernels on the hardware or the
 * emulated machine, compare every count with its expected value, print the
 * table, write the JSON report and the SVG chart; exit 1 on any FAIL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "vcompare.h"
#include "vknown.h"
#include "vplan.h"
#include "vrepeat.h"
#include "vgen.h"
#include "vrun.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmon-validate [OPTION]...\n"
"Run STREAM, DGEMM and pointer-chase kernels, count uncore and offcore events\n"
"by name through libpmon, and check every count against its expected value.\n"
"\n"
"  -b, --backend=auto|sim|msr  auto: the hardware when usable (root, SNB-EP),\n"
"                              else the emulated machine; msr: the hardware\n"
"                              only; sim: the emulated machine (default\n"
"                              $PMON_BACKEND, else auto)\n"
"  -k, --kernels=LIST          comma list of stream,dgemm,chase,numa,chan,clock,\n"
"                              share,power,dram,lock,partial,pfreq (default:\n"
"                              all)\n"
"  -m, --shape=SPEC            emulated machine shape, PMON_SIM syntax (default\n"
"                              $PMON_SIM, else the default E5-2680 pair);\n"
"                              clock= is always wall; the counts of load= and\n"
"                              noise= are taken out by the idle baseline, not\n"
"                              the kernel lines they evict (doc/validate.md)\n"
"  -t, --threads=N             kernel threads on the local socket (default 2),\n"
"                              pinned to its first N cores\n"
"  -c, --cpus=LIST             pin the kernel threads to these CPUs instead\n"
"                              (comma list, all on the local socket)\n"
"  -s, --socket=N              local socket (default 0)\n"
"  -r, --remote=N              socket holding remote memory, not the local one\n"
"                              (default: the next)\n"
"  -p, --place=local|remote    where every kernel's memory lives (default\n"
"                              local; the numa kernel is always remote)\n"
"  -o, --output=DIR            where report.json and chart.svg go\n"
"                              (default validate-report)\n"
"      --stream-mult=X         STREAM arrays of X times the LLC (default 4)\n"
"      --dgemm=N1,N2           DGEMM sizes that fit / exceed the LLC (multiples\n"
"                              of 64; default from the LLC size)\n"
"      --clock-ms=MS           length of the clock window (default 300)\n"
"  -q, --quick                 the short suite (make check): fewer hops, shorter\n"
"                              windows\n"
"      --break=KIND            program something wrong on purpose: umask,\n"
"                              channel, socket, wrap, lose, snoop, state,\n"
"                              victim, r3, pcu, dram, lock, partial or pfreq\n"
"                              (the breakage test); metric: the derived\n"
"                              metrics' formulas with a wrong constant;\n"
"                              baseline: the idle background measured but\n"
"                              not subtracted (with load= or noise=);\n"
"                              clock: the measured UCLK recorded 10%% high\n"
"                              (with --measure-clocks, or on hardware);\n"
"                              code:EVENT, umask:EVENT or filter:EVENT change\n"
"                              that field of every event whose name contains\n"
"                              EVENT, as a wrong table entry would\n"
"      --prefetch=off          switch the four prefetchers off for the run (MSR\n"
"                              0x1A4 bits 0-3 on every CPU of the machine; root\n"
"                              on hardware) and put them back at the end;\n"
"                              without it MSR 0x1A4 is only read\n"
"      --measure-clocks        measure UCLK, DCLK and QCLK first (each one's\n"
"                              count over --clock-ms of the machine's time)\n"
"                              and use them, not the shape's; always so on\n"
"                              hardware, where only the PCU's is documented\n"
"      --idle-ms=MS            the idle probe before each counting window\n"
"                              (default 2 on the emulated machine, 20 on\n"
"                              hardware; 0: no idle baseline); when it counts\n"
"                              anything, 3 windows 10 x as long measure the\n"
"                              background, subtracted with its spread added\n"
"                              to the tolerance\n"
"      --repeat=N              run every window N times and check the median\n"
"                              run (the lower middle one for even N); the\n"
"                              spread of the runs is reported\n"
"      --break-once            with --repeat, the --break in the first run only\n"
"      --strict                a skipped check fails the run too\n"
"      --seed=N                the chases' random orders and, on the emulated\n"
"                              machine, the threads' interleaving (default 1):\n"
"                              the same seed gives the same counts\n"
"      --list                  print the checks a run would make (and the\n"
"                              events the backend refuses) without running\n"
"      --known=FILE            understood deviations (doc/validate.md): a FAIL\n"
"                              matching one is KNOWN (reason), not failed\n"
"      --record-known=FILE     write FILE (new) from this run's failures, for a\n"
"                              person to give each its reason\n"
"      --compare A.json B.json print what changed between two reports (checks\n"
"                              that flipped, ratios moved beyond their spread);\n"
"                              exit 0 nothing changed, 1 something did\n"
"  -h, --help                  this text\n"
"A check is PASS, FAIL (an event the backend refuses to count is a FAIL naming\n"
"it, never a skip), KNOWN (a FAIL matching an understood deviation) or\n"
"skipped (only for a reason known from the machine or the options before\n"
"running, counted per check).\n"
"Exit status: 0 every check passed (or is KNOWN), 1 a check failed (or, with\n"
"--strict, was skipped), 2 the suite could not run.\n");
}

static int parse_kernels(const char *s, unsigned *mask)
{
	char buf[256], *save = NULL;
	*mask = 0;
	if (strlen(s) >= sizeof(buf)) {
		fprintf(stderr, "pmon-validate: --kernels: list too long\n");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int found = 0;
		if (strcmp(t, "all") == 0) {
			*mask = (1u << VK_N) - 1;
			continue;
		}
		for (int i = 0; i < VK_N; i++)
			if (strcmp(t, vkernel_name[i]) == 0) {
				*mask |= 1u << i;
				found = 1;
			}
		if (!found) {
			fprintf(stderr, "pmon-validate: unknown kernel '%s' (stream, dgemm, chase, numa, chan, clock, share, power, dram, lock, partial, pfreq, all)\n", t);
			return -1;
		}
	}
	if (!*mask) {
		fprintf(stderr, "pmon-validate: --kernels='%s' names no kernel (stream, dgemm, chase, numa, chan, clock, share, power, dram, lock, partial, pfreq, all)\n", s);
		return -1;
	}
	return 0;
}

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "pmon-validate: --%s=%s: want an integer in %ld..%ld\n", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Run a step --repeat times (vrepeat.h).  0, or -1 after saying why. */
static int run_step(struct vctx *c, const struct vstep *st, size_t first)
{
	enum vbreak brk = c->o.brk;
	enum vbfield brk_field = c->o.brk_field;
	struct vrep_saved sv;
	int rc = 0;
	for (int r = 0; r < c->o.repeat && rc == 0; r++) {
		size_t from = c->checks.n;
		c->rep = r;
		if (r) {
			vprogress(c, "  run %d of %d\n", r + 1, c->o.repeat);
			vrepeat_save(c, &sv);
			if (c->o.break_once) {
				c->o.brk = VB_NONE;
				c->o.brk_field = VBF_NONE;
			}
		}
		if (st->fn(c) != 0) {
			fprintf(stderr, "pmon-validate: %s: %s\n", vkernel_name[st->k],
				c->err[0] ? c->err : "failed");
			if (!c->place_failed)
				rc = -1;
			/* Memory not where it should be: a FAIL in the table
			 * (recorded), the next experiment runs. */
			c->place_failed = 0;
			c->err[0] = 0;
			if (r == 0)
				break;
		}
		if (r && vrepeat_merge(c, first, from, &sv) != 0) {
			fprintf(stderr, "pmon-validate: %s\n", c->err);
			rc = -1;
		}
	}
	c->o.brk = brk;
	c->o.brk_field = brk_field;
	c->rep = 0;
	if (c->o.repeat > 1)
		vrepeat_finish(c, first);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "backend", required_argument, 0, 'b' }, { "kernels", required_argument, 0, 'k' },
		{ "shape", required_argument, 0, 'm' }, { "threads", required_argument, 0, 't' },
		{ "socket", required_argument, 0, 's' }, { "remote", required_argument, 0, 'r' },
		{ "output", required_argument, 0, 'o' }, { "quick", no_argument, 0, 'q' },
		{ "place", required_argument, 0, 'p' }, { "cpus", required_argument, 0, 'c' },
		{ "stream-mult", required_argument, 0, 1 }, { "dgemm", required_argument, 0, 2 },
		{ "clock-ms", required_argument, 0, 3 }, { "break", required_argument, 0, 4 },
		{ "strict", no_argument, 0, 5 }, { "list", no_argument, 0, 6 },
		{ "prefetch", required_argument, 0, 7 },
		{ "seed", required_argument, 0, 20 }, { "measure-clocks", no_argument, 0, 27 },
		{ "known", required_argument, 0, 21 }, { "record-known", required_argument, 0, 22 },
		{ "compare", no_argument, 0, 23 },
		{ "idle-ms", required_argument, 0, 24 }, { "repeat", required_argument, 0, 25 },
		{ "break-once", no_argument, 0, 26 },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
	};
	struct vctx *c = calloc(1, sizeof(*c));
	long v;
	int opt, rc = 2;

	if (!c)
		return 2;
	c->argc = argc;
	c->argv = argv;
	{
		time_t now = time(NULL);
		struct tm tm;
		if (gmtime_r(&now, &tm))
			strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	c->o.seed = 1;
	const char *backend_opt = NULL, *known_path = NULL;
	struct vknown known = { NULL, 0 };
	int compare = 0;
	int remote_given = 0;
	char why[512];
	c->o.outdir = "validate-report";
	c->o.kernels = (1u << VK_N) - 1;
	c->o.threads = 2;
	c->o.remote = -1;
	c->o.stream_mult = 4;
	c->o.clock_ms = 300;
	c->o.idle_ms = -1;
	c->o.repeat = 1;
	while ((opt = getopt_long(argc, argv, "b:k:m:t:s:r:o:p:c:qh", lo, NULL)) != -1) {
		switch (opt) {
		case 'b': backend_opt = optarg; break;
		case 'k': if (parse_kernels(optarg, &c->o.kernels)) goto out; break;
		case 'm': c->o.shape = optarg; break;
		case 't': if (parse_long("threads", optarg, 1, 64, &v)) goto out; c->o.threads = (int)v; break;
		case 's': if (parse_long("socket", optarg, 0, 7, &v)) goto out; c->o.socket = (int)v; break;
		case 'r':
			if (parse_long("remote", optarg, 0, 7, &v))
				goto out;
			c->o.remote = (int)v;
			remote_given = 1;
			break;
		case 'o': c->o.outdir = optarg; break;
		case 'c': c->o.cpus = optarg; break;
		case 'p':
			if (strcmp(optarg, "local") && strcmp(optarg, "remote")) {
				fprintf(stderr, "pmon-validate: --place=%s: want local or remote\n", optarg);
				goto out;
			}
			c->o.place_remote = strcmp(optarg, "remote") == 0;
			break;
		case 'q': c->o.quick = 1; c->o.clock_ms = 100; break;
		case 1: {
			char *end;
			c->o.stream_mult = strtod(optarg, &end);
			if (*end || c->o.stream_mult < 0.01 || c->o.stream_mult > 64) {
				fprintf(stderr, "pmon-validate: --stream-mult=%s: want 0.01..64\n", optarg);
				goto out;
			}
			break;
		}
		case 2: {
			unsigned long a = 0, b = 0;
			if (sscanf(optarg, "%lu,%lu", &a, &b) != 2 || a % 64 || b % 64 || !a || !b ||
			    a > 8192 || b > 8192) {
				fprintf(stderr, "pmon-validate: --dgemm=%s: want N1,N2, multiples of 64 up to 8192\n", optarg);
				goto out;
			}
			c->o.dgemm_n[0] = a;
			c->o.dgemm_n[1] = b;
			break;
		}
		case 3: if (parse_long("clock-ms", optarg, 10, 60000, &v)) goto out; c->o.clock_ms = (double)v; break;
		case 4: {
			int found = 0;
			const char *colon = strchr(optarg, ':');
			for (int i = 1; i < VB_N && !colon; i++)
				if (strcmp(optarg, vbreak_name[i]) == 0) {
					c->o.brk = (enum vbreak)i;
					found = 1;
				}
			for (int i = 1; i < VBF_N && colon && colon[1]; i++)
				if (strncmp(optarg, vbfield_name[i], (size_t)(colon - optarg)) == 0 &&
				    strlen(vbfield_name[i]) == (size_t)(colon - optarg)) {
					c->o.brk_field = (enum vbfield)i;
					c->o.brk_pat = colon + 1;
					found = 1;
				}
			if (!found) {
				fprintf(stderr, "pmon-validate: --break=%s: want umask, channel, socket, wrap, "
					"lose, snoop, state, victim, r3, pcu, dram, metric, lock, partial, pfreq, baseline, clock, or code:EVENT, umask:EVENT, filter:EVENT\n", optarg);
				goto out;
			}
			break;
		}
		case 5: c->o.strict = 1; break;
		case 6: c->o.list = 1; break;
		case 7:
			if (strcmp(optarg, "off")) {
				fprintf(stderr, "pmon-validate: --prefetch=%s: want off (without the "
					"option the prefetchers stay as they are)\n", optarg);
				goto out;
			}
			c->o.prefetch_off = 1;
			break;
		case 20: {
			char *end;
			errno = 0;
			c->o.seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				fprintf(stderr, "pmon-validate: --seed=%s: want an unsigned integer\n", optarg);
				goto out;
			}
			break;
		}
		case 21: known_path = optarg; break;
		case 22: c->o.record_known = optarg; break;
		case 23: compare = 1; break;
		case 24: {
			char *end;
			c->o.idle_ms = strtod(optarg, &end);
			if (end == optarg || *end || !(c->o.idle_ms >= 0 && c->o.idle_ms <= 1000)) {
				fprintf(stderr, "pmon-validate: --idle-ms=%s: want 0..1000 (0: no idle "
					"baseline)\n", optarg);
				goto out;
			}
			break;
		}
		case 25: if (parse_long("repeat", optarg, 1, 99, &v)) goto out; c->o.repeat = (int)v; break;
		case 26: c->o.break_once = 1; break;
		case 27: c->o.measure_clocks = 1; break;
		case 'h': usage(stdout); rc = 0; goto out;
		default: usage(stderr); goto out;
		}
	}
	if (compare) {
		if (argc - optind != 2) {
			fprintf(stderr, "pmon-validate: --compare wants two reports: A.json B.json\n");
			goto out;
		}
		rc = vcompare(stdout, argv[optind], argv[optind + 1]);
		goto out;
	}
	if (optind < argc) {
		fprintf(stderr, "pmon-validate: unexpected argument '%s'\n", argv[optind]);
		goto out;
	}
	if (c->o.break_once && (c->o.repeat < 2 || (!c->o.brk && !c->o.brk_field))) {
		fprintf(stderr, "pmon-validate: --break-once wants --break=KIND and --repeat=N with N >= 2\n");
		goto out;
	}
	/* Before anything runs: the deviations file must be sound. */
	if (known_path && vknown_load(known_path, &known, why, sizeof(why)) != 0) {
		fprintf(stderr, "pmon-validate: %s\n", why);
		goto out;
	}
	if (!(c->o.backend = vbackend_choose(backend_opt, getenv("PMON_BACKEND"), why, sizeof(why)))) {
		fprintf(stderr, "pmon-validate: %s\n", why);
		goto out;
	}
	if (remote_given && c->o.remote == c->o.socket) {
		fprintf(stderr, "pmon-validate: --remote=%d is the local socket (--socket=%d): remote "
			"memory must be on another socket\n", c->o.remote, c->o.socket);
		goto out;
	}
	/* Before anything runs: the reports must have somewhere to go. */
	if (voutdir_ready(c->o.outdir, why, sizeof(why)) != 0 ||
	    (c->o.record_known && !c->o.list &&
	     vknown_record_ready(c->o.record_known, why, sizeof(why)) != 0)) {
		fprintf(stderr, "pmon-validate: %s\n", why);
		goto out;
	}
	if ((rc = vopen_backend(c)) != 0)
		goto out;
	/* The experiments the machine's generation has expectations for. */
	const struct vgen *gen = vgen_of(c);
	if (c->o.kernels & ~gen->kernels) {
		char left[160] = "";
		for (int k = 0; k < VK_N; k++)
			if ((c->o.kernels & ~gen->kernels) >> k & 1)
				snprintf(left + strlen(left), sizeof(left) - strlen(left), "%s%s",
					 left[0] ? "," : "", vkernel_name[k]);
		vnote(c, "%s uncore: no expectations for %s (their boxes are SNB-EP's): not run",
		      gen->name, left);
		c->o.kernels &= gen->kernels;
	}
	rc = 2;
	if (c->o.idle_ms < 0)
		c->o.idle_ms = c->hw ? 20 : 2;
	if (vpick_cpus(c) != 0)
		goto out;
	if (c->hw && vplace_hwloc_open(&c->place, secure_getenv("PMON_TOPOLOGY"), why,
				       sizeof(why)) != 0) {
		fprintf(stderr, "pmon-validate: memory and threads cannot be placed: %s\n", why);
		goto out;
	}
	if (vplace_preflight(c) != 0) {
		fprintf(stderr, "pmon-validate: %s\n", c->err);
		goto out;
	}
	if (c->o.place_remote && !c->remote_ok) {
		fprintf(stderr, "pmon-validate: --place=remote: %s\n", c->remote_why);
		goto out;
	}

	/* The machine's settings, read before anything runs; the
	 * prefetchers switched off only on request (not for --list). */
	vpf_read(&c->pf, c->m, c->hw, c->cpus, c->nthreads);
	vhwinfo_read(&c->hwinfo, c->m, c->hw, c->cpus, c->nthreads, NULL,
		     secure_getenv("PMON_CPUINFO"));
	if (c->o.prefetch_off && !c->o.list) {
		if (vpf_off(&c->pf, why, sizeof(why)) != 0) {
			fprintf(stderr, "pmon-validate: %s\n", why);
			goto out;
		}
		vpf_restore_on_signals(&c->pf);
		c->g.prefetch = 0;       /* the expectations: no prefetcher on */
		fprintf(stderr, "pmon-validate: --prefetch=off: MSR 0x1A4 bits 0-3 set on every CPU "
			"of the machine (%d), put back at the end\n", c->pf.n);
	}

	/* UCLK, DCLK and QCLK measured before the plan when not known (the
	 * hardware) or asked: every check after uses what was measured. */
	if (vclock_measure(c) != 0) {
		fprintf(stderr, "pmon-validate: %s\n", c->err);
		goto out;
	}

	static const struct vstep steps[] = {
		{ VK_STREAM, exp_stream, "STREAM copy/scale/add/triad, ordinary and non-temporal stores" },
		{ VK_NUMA, exp_numa, "STREAM triad with the memory on the remote socket" },
		{ VK_CHASE, exp_chase, "pointer chase, L1/L2/LLC/8xLLC, line and page orders" },
		{ VK_DGEMM, exp_dgemm, "blocked DGEMM, fits and exceeds the LLC" },
		{ VK_CHAN, exp_chan, "channel probe" },
		{ VK_CLOCK, exp_clock, "clocks against elapsed time" },
		{ VK_SHARE, exp_share, "one line shared by two cores and two sockets, forwards, victims" },
		{ VK_POWER, exp_power, "PCU frequency bands and C-state occupancy" },
		{ VK_DRAM, exp_dram, "DRAM rows: row hits, row misses and writes (ACT, PRE, queues)" },
		{ VK_LOCK, exp_lock, "UBox bus locks: locked adds across two lines and within one" },
		{ VK_PARTIAL, exp_partial, "partial-line streaming stores: HA partial writes, underfills" },
		{ VK_PFREQ, exp_pfreq, "offcore prefetch requests apart from the demand's" },
	};
	enum { NSTEPS = sizeof(steps) / sizeof(steps[0]) };
	int nsteps = 0, step = 0, planned[NSTEPS];
	size_t pfirst[NSTEPS];
	for (size_t i = 0; i < NSTEPS; i++)
		nsteps += (c->o.kernels >> steps[i].k) & 1;
	fprintf(stderr, "pmon-validate: %s backend (%s), %d socket(s) x %d cores, LLC %.1f MiB, "
		"%d channel(s), %d thread(s) on socket %d%s%s\n",
		pmon_machine_backend(c->m), pmon_machine_cpu_name(c->m), c->g.sockets, c->g.cores,
		c->g.llc_bytes / 1048576.0, c->g.channels, c->nthreads, c->o.socket,
		c->o.quick ? ", quick" : "", c->o.brk || c->o.brk_field ? ", BREAKAGE TEST" : "");
	double t0 = vnow_ns();
	/* The plan, before any kernel runs: every event asked of the backend,
	 * every check known. */
	if (vplan_make(c, steps, NSTEPS, planned, pfirst) != 0) {
		fprintf(stderr, "pmon-validate: plan: %s\n", c->err[0] ? c->err : "failed");
		goto out;
	}
	int refused = vplan_refused(c->o.list ? NULL : stderr, c);
	if (c->o.list) {
		vplan_print(stdout, c);
		printf("%zu checks planned, %d skipped, %d event%s refused by the backend (their checks "
		       "FAIL)\n", c->plan.n, c->plan_skipped, refused, refused == 1 ? "" : "s");
		rc = 0;
		goto out;
	}
	fprintf(stderr, "pmon-validate: plan: %zu checks, %d skipped; pre-check: %d event%s refused\n",
		c->plan.n, c->plan_skipped, refused, refused == 1 ? "" : "s");
	for (size_t i = 0; i < NSTEPS; i++) {
		if (!((c->o.kernels >> steps[i].k) & 1))
			continue;
		double s0 = vnow_ns();
		size_t first = c->step_first = c->checks.n;
		int skipped = c->nskipped;
		fprintf(stderr, "[%d/%d] %s: %s\n", ++step, nsteps, vkernel_name[steps[i].k], steps[i].what);
		c->phase = vkernel_name[steps[i].k];
		if (run_step(c, &steps[i], first) != 0)
			goto out;
		vplan_guard(c, &steps[i], first, c->nskipped - skipped, pfirst[i], planned[i]);
		fprintf(stderr, "[%d/%d] %s done in %.1f s\n", step, nsteps, vkernel_name[steps[i].k],
			(vnow_ns() - s0) * 1e-9);
	}
	double secs = (vnow_ns() - t0) * 1e-9;
	if (c->o.brk_field && !c->brk_hits) {
		fprintf(stderr, "pmon-validate: --break=%s:%s changed no event the run counted\n",
			vbfield_name[c->o.brk_field], c->o.brk_pat);
		goto out;
	}

	if (known.n)
		vknown_apply(&known, &c->checks);
	report_table(stdout, c);
	report_boxes(stdout, c);
	for (int i = 0; i < c->nnotes; i++)
		printf("note: %s\n", c->notes[i]);
	for (int i = 0; i < c->nskips; i++)
		printf("skipped (%d check%s): %s\n", c->skips[i].times, c->skips[i].times > 1 ? "s" : "",
		       c->skips[i].what);
	report_refused(stdout, c);
	char path[4096];
	snprintf(path, sizeof(path), "%s/report.json", c->o.outdir);
	if (report_json(path, c, secs, why, sizeof(why)) != 0) {
		fprintf(stderr, "pmon-validate: %s\n", why);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/chart.svg", c->o.outdir);
	if (report_svg(path, c, why, sizeof(why)) != 0) {
		fprintf(stderr, "pmon-validate: %s\n", why);
		goto out;
	}
	size_t failed = vchecks_failed(&c->checks), nknown = vchecks_known(&c->checks);
	int record_failed = 0;
	report_baseline(stdout, c);
	printf("%zu checks: %zu passed, %zu failed, %zu known, %d skipped; %.1f s; %llu line references "
	       "modeled (%.1f M/s); report %s/report.json, chart %s/chart.svg\n",
	       c->checks.n, c->checks.n - failed - nknown, failed, nknown, c->nskipped, secs,
	       (unsigned long long)c->refs_fed, c->model_s > 0 ? c->refs_fed / c->model_s * 1e-6 : 0,
	       c->o.outdir, c->o.outdir);
	if (c->o.record_known) {
		if (vknown_record(c->o.record_known, &c->checks, why, sizeof(why)) != 0) {
			fprintf(stderr, "pmon-validate: %s\n", why);
			record_failed = 1;
		} else {
			printf("deviations of this run's failures written to %s: give each its reason, "
			       "then --known %s\n", c->o.record_known, c->o.record_known);
		}
	}
	printf("backend: %s, %s (%s)\n", pmon_machine_backend(c->m),
	       c->sim ? "the emulated machine" : "the hardware", pmon_machine_cpu_name(c->m));
	rc = record_failed ? 2 : failed ? 1 : 0;
	if (rc < 2 && c->o.strict && c->nskipped) {
		printf("--strict: %d check%s skipped: the run fails\n", c->nskipped,
		       c->nskipped > 1 ? "s" : "");
		rc = 1;
	}
out:
	if (c->pf.off) {
		char rw[512];
		if (vpf_restore(&c->pf, rw, sizeof(rw)) != 0) {
			fprintf(stderr, "pmon-validate: MSR 0x1A4 NOT RESTORED: %s\n", rw);
			rc = 2;
		} else {
			fprintf(stderr, "pmon-validate: --prefetch=off: MSR 0x1A4 put back as found\n");
		}
	}
	if (c->place.ctx)
		vplace_hwloc_close(&c->place);
	if (c->m)
		pmon_machine_close(c->m);
	if (c->sim) {
		pmon_sim_set_current(NULL);
		pmon_sim_destroy(c->sim);
	}
	vchecks_free(&c->checks);
	vchecks_free(&c->plan);
	vknown_free(&known);
	free(c);
	return rc;
}
