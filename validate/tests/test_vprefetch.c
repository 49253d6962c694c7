/*
 * test_vprefetch.c - the prefetchers' MSR and the machine's settings on
 * the fake device files of a two-socket SNB-EP (ctests/fake_hw.h).
 *
 *   - pmon_machine_platform_read reads the platform MSRs and refuses any
 *     other address; pmon_machine_prefetch_write sets bits 0-3 of MSR
 *     0x1A4, keeps its other bits and refuses bits beyond 0-3 (file
 *     unchanged);
 *   - without --prefetch=off the suite only reads MSR 0x1A4: every file
 *     keeps its bytes; with it bits 0-3 are set on every CPU of the
 *     machine (the remote socket's too), and put back as found at the end
 *     (a CPU that cannot be is named), and from a SIGTERM;
 *   - the recorded settings: turbo from IA32_MISC_ENABLE bit 38, the base
 *     frequency from MSR_PLATFORM_INFO, the package C-state limit, the
 *     microcode from cpuinfo, cpufreq and cpuidle from a fake sysfs, an
 *     unreadable MSR recorded with its reason.
 *
 *   - the clocks on the hardware path: the geometry knows only the PCU's
 *     800 MHz; UCLK, DCLK and QCLK are measured first, and a measurement
 *     outside the documented range (the fake counters do not tick; the UBox
 *     counter's file overlaps its control's, whose write it reads back)
 *     FAILs as a check,
 *     is recorded with why in "clocks_measured", and the clock checks that
 *     need it are not made (never checked against a guessed frequency).
 *
 * The fake MSR files overlap MSRs less than 8 apart: 0x1A0's high half is
 * 0x1A4's low half, so turbo is planted on a CPU whose 0x1A4 stays 0.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmon/platform.h>

#include "check.h"
#include "fake_hw.h"
#include "vtest.h"
#include "../vrun.h"

static char base[64];
static struct fake_world w;

#define PF0 0x0000000100000000ull   /* CPU 1's 0x1A4 before the run: other bits set, all on */
#define PF2 0x5ull                  /* CPU 2's: two prefetchers already off */

static pmon_machine_t *open_world(void)
{
	pmon_machine_t *m = NULL;
	char why[256];
	int rc = pmon_machine_open(&m, "msr", why, sizeof(why));
	CHECK(rc == 0, "open the fake machine: %s", why);
	return rc == 0 ? m : NULL;
}

static void plant(void)
{
	fake_msr_put(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL, PF0);
	fake_msr_put(w.msr, 2, PMON_MSR_MISC_FEATURE_CTL, PF2);
	fake_msr_put(w.msr, 3, PMON_MSR_MISC_FEATURE_CTL, 0x2);
}

static void test_api(pmon_machine_t *m)
{
	uint64_t v = 0;
	char why[256];

	plant();
	CHECK_EQ_INT(pmon_machine_platform_read(m, 1, PMON_MSR_MISC_FEATURE_CTL, &v, why, sizeof(why)),
		     0, "read 0x1A4");
	CHECK_EQ_U64(v, PF0, "CPU 1's 0x1A4");
	CHECK_EQ_INT(pmon_machine_platform_read(m, 1, 0x10, &v, why, sizeof(why)), PMON_EINVAL,
		     "the TSC is not a platform register pmon reads");
	CHECK(strstr(why, "0x10") != NULL, "named: %s", why);
	CHECK_EQ_INT(pmon_machine_platform_read(m, 9, PMON_MSR_PLATFORM_INFO, &v, why, sizeof(why)),
		     PMON_ERANGE, "no CPU 9");
	CHECK_EQ_INT(pmon_machine_prefetch_write(m, 1, 0x10, why, sizeof(why)), PMON_EINVAL,
		     "bit 4 refused");
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0, "nothing written");
	CHECK_EQ_INT(pmon_machine_prefetch_write(m, 1, PMON_PF_ALL, why, sizeof(why)), 0, "all off");
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0 | 0xf,
		     "bits 0-3 set, bit 32 kept");
	CHECK_EQ_INT(pmon_machine_prefetch_write(m, 1, 0, why, sizeof(why)), 0, "all on");
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0, "back");
}

static void test_read_only(pmon_machine_t *m)
{
	struct vpf p;
	int cpus[2] = { 1, 2 };

	plant();
	CHECK_EQ_INT(vpf_read(&p, m, 1, cpus, 2), 2, "read on both CPUs");
	CHECK(p.found[0] == PF0 && p.found[1] == PF2, "as planted");
	char why[256];
	CHECK_EQ_INT(vpf_restore(&p, why, sizeof(why)), 0, "nothing to restore");
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0, "CPU 1 untouched");
	CHECK_EQ_U64(fake_msr_get(w.msr, 2, PMON_MSR_MISC_FEATURE_CTL), PF2, "CPU 2 untouched");
	CHECK_EQ_U64(fake_msr_get(w.msr, 3, PMON_MSR_MISC_FEATURE_CTL), 0x2, "CPU 3 untouched");
}

static void test_off_restore(pmon_machine_t *m)
{
	struct vpf p;
	int cpus[2] = { 0, 1 };
	char why[256];

	/* The run's threads on socket 0 (CPUs 0 and 1); the share and numa
	 * kernels' remote CPUs on socket 1 (2 and 3): every prefetcher the
	 * expectations assume off is switched off, and every one put back. */
	CHECK(pmon_machine_cpu_socket(m, 0) == 0 && pmon_machine_cpu_socket(m, 1) == 0 &&
	      pmon_machine_cpu_socket(m, 2) == 1 && pmon_machine_cpu_socket(m, 3) == 1,
	      "CPUs 0, 1 on socket 0; 2, 3 on socket 1 (%d %d %d %d)", pmon_machine_cpu_socket(m, 0),
	      pmon_machine_cpu_socket(m, 1), pmon_machine_cpu_socket(m, 2), pmon_machine_cpu_socket(m, 3));
	plant();
	uint64_t f0 = fake_msr_get(w.msr, 0, PMON_MSR_MISC_FEATURE_CTL);
	vpf_read(&p, m, 1, cpus, 2);
	CHECK_EQ_INT(vpf_off(&p, why, sizeof(why)), 0, "--prefetch=off");
	CHECK_EQ_INT(p.n, 4, "every CPU of the machine in the list");
	CHECK(p.cpu[0] == 0 && p.cpu[1] == 1, "the run's CPUs first (%d, %d)", p.cpu[0], p.cpu[1]);
	CHECK_EQ_U64(fake_msr_get(w.msr, 0, PMON_MSR_MISC_FEATURE_CTL), f0 | 0xf, "CPU 0 all off");
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0 | 0xf,
		     "CPU 1 all off, bit 32 kept");
	CHECK_EQ_U64(fake_msr_get(w.msr, 2, PMON_MSR_MISC_FEATURE_CTL), 0xf,
		     "CPU 2 (remote socket) all off");
	CHECK_EQ_U64(fake_msr_get(w.msr, 3, PMON_MSR_MISC_FEATURE_CTL), 0xf,
		     "CPU 3 (remote socket) all off");
	CHECK_EQ_INT(vpf_restore(&p, why, sizeof(why)), 0, "restore");
	CHECK_EQ_U64(fake_msr_get(w.msr, 0, PMON_MSR_MISC_FEATURE_CTL), f0, "CPU 0 as found");
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0, "CPU 1 as found");
	CHECK_EQ_U64(fake_msr_get(w.msr, 2, PMON_MSR_MISC_FEATURE_CTL), PF2,
		     "CPU 2 (remote socket) as found");
	CHECK_EQ_U64(fake_msr_get(w.msr, 3, PMON_MSR_MISC_FEATURE_CTL), 0x2,
		     "CPU 3 (remote socket) as found");

	/* A CPU that cannot be read: nothing is changed anywhere. */
	int bad[2] = { 1, 7 };
	vpf_read(&p, m, 1, bad, 2);
	CHECK_EQ_INT(vpf_off(&p, why, sizeof(why)), -1, "CPU 7 cannot be read");
	CHECK(strstr(why, "CPU 7") != NULL, "named: %s", why);
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0, "CPU 1 put back");
}

/* A run stopped by SIGTERM puts the bits back before it dies. */
static void test_signal(void)
{
	plant();
	pid_t pid = fork();
	if (pid == 0) {
		pmon_machine_t *m = NULL;
		static struct vpf p;
		int cpus[2] = { 1, 2 };
		char why[256];
		if (pmon_machine_open(&m, "msr", why, sizeof(why)) != 0)
			_exit(3);
		vpf_read(&p, m, 1, cpus, 2);
		if (vpf_off(&p, why, sizeof(why)) != 0)
			_exit(4);
		vpf_restore_on_signals(&p);
		if (fake_msr_get(w.msr, 2, PMON_MSR_MISC_FEATURE_CTL) != 0xf ||
		    fake_msr_get(w.msr, 3, PMON_MSR_MISC_FEATURE_CTL) != 0xf)
			_exit(5);
		raise(SIGTERM);
		_exit(6);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "the run died of SIGTERM (status 0x%x)", st);
	CHECK_EQ_U64(fake_msr_get(w.msr, 1, PMON_MSR_MISC_FEATURE_CTL), PF0, "CPU 1 put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, 2, PMON_MSR_MISC_FEATURE_CTL), PF2, "CPU 2 put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, 3, PMON_MSR_MISC_FEATURE_CTL), 0x2,
		     "CPU 3 (no thread of the run) put back");
}

static void test_hwinfo(pmon_machine_t *m)
{
	char sys[128], path[256];
	struct vhwinfo h;
	struct vpf p;
	struct vgeom g = { 0 };
	int cpus[1] = { 0 };

	/* CPU 0: turbo disengaged (bit 38), base ratio 27, C-state limit 3,
	 * 0x1A4 = 0 (its low half is 0x1A0's high half here). */
	fake_msr_put(w.msr, 0, PMON_MSR_MISC_ENABLE, 1ull << 38);
	fake_msr_put(w.msr, 0, PMON_MSR_MISC_FEATURE_CTL, 0x40);
	fake_msr_put(w.msr, 0, PMON_MSR_PLATFORM_INFO, 27u << 8);
	fake_msr_put(w.msr, 0, PMON_MSR_PKG_CST_CONFIG, 0x403);
	fake_msr_put(w.msr, 0, PMON_MSR_TURBO_RATIO_LIMIT, 0x2022242424242424ull);
	snprintf(sys, sizeof(sys), "%s/sysfs-cpu", base);
	snprintf(path, sizeof(path), "%s/cpu0/cpufreq", sys);
	fake_mkdir_p(path);
	snprintf(path, sizeof(path), "%s/cpu0/cpufreq/scaling_cur_freq", sys);
	fake_write_file(path, "2700000\n", 8);
	snprintf(path, sizeof(path), "%s/cpu0/cpufreq/scaling_governor", sys);
	fake_write_file(path, "performance\n", 12);
	snprintf(path, sizeof(path), "%s/cpu0/cpuidle/state1", sys);
	fake_mkdir_p(path);
	snprintf(path, sizeof(path), "%s/cpu0/cpuidle/state0", sys);
	fake_mkdir_p(path);
	snprintf(path, sizeof(path), "%s/cpu0/cpuidle/state0/name", sys);
	fake_write_file(path, "POLL\n", 5);
	snprintf(path, sizeof(path), "%s/cpu0/cpuidle/state1/name", sys);
	fake_write_file(path, "C6\n", 3);
	snprintf(path, sizeof(path), "%s/cpu0/cpuidle/state1/disable", sys);
	fake_write_file(path, "1\n", 2);

	vhwinfo_read(&h, m, 1, cpus, 1, sys, w.cpuinfo);
	vpf_read(&p, m, 1, cpus, 1);
	json_t *j = vhwinfo_json(&h, &p, &g);
	CHECK(json_is_false(json_object_get(j, "turbo")), "turbo disengaged (bit 38)");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "base_mhz")), 2700, "base 27 x 100 MHz");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "pkg_cstate_limit")), 3, "C-state limit");
	CHECK(!strcmp(json_string_value(json_object_get(json_object_get(j, "turbo_ratio_limit"),
							 "value")), "0x2022242424242424"),
	      "turbo ratio limits recorded");
	CHECK(!strcmp(json_string_value(json_object_get(j, "microcode")), "0x71a"), "microcode");
	json_t *f = json_array_get(json_object_get(j, "cpufreq"), 0);
	CHECK_EQ_INT(json_integer_value(json_object_get(f, "cur_khz")), 2700000, "cpufreq");
	CHECK(json_is_null(json_object_get(f, "max_khz")), "an absent cpufreq file is null");
	CHECK(!strcmp(json_string_value(json_object_get(f, "governor")), "performance"), "governor");
	CHECK(!strcmp(json_string_value(json_object_get(j, "cpuidle")), "POLL on, C6 off"),
	      "cpuidle: %s", json_string_value(json_object_get(j, "cpuidle")));
	json_t *pf = json_array_get(json_object_get(json_object_get(j, "prefetch"), "found"), 0);
	CHECK(!strcmp(json_string_value(json_object_get(pf, "msr_0x1a4")), "0x40"),
	      "CPU 0's 0x1A4 recorded");
	CHECK(strstr(json_string_value(json_object_get(json_object_get(j, "prefetch"), "run")),
		     "only read") != NULL, "the run left them as found");
	CHECK(strstr(json_string_value(json_object_get(j, "kernel")), "Linux") != NULL, "kernel");
	json_decref(j);

	/* An MSR that cannot be read: recorded with why, no value. */
	int gone[1] = { 9 };
	vhwinfo_read(&h, m, 1, gone, 1, sys, w.cpuinfo);
	j = vhwinfo_json(&h, &p, &g);
	json_t *pi = json_object_get(j, "platform_info");
	CHECK(json_is_null(json_object_get(pi, "value")) &&
	      strstr(json_string_value(json_object_get(pi, "error")), "CPU 9"),
	      "unreadable: recorded with why");
	CHECK(json_is_null(json_object_get(j, "turbo")), "turbo unknown");
	json_decref(j);
}

/* A run's context on the machine m as on the hardware (a failed check
 * and NULL when out of memory). */
static struct vctx *hw_ctx(pmon_machine_t *m)
{
	struct vctx *c = calloc(1, sizeof(*c));
	if (!c) {
		CHECK(0, "calloc");
		return NULL;
	}
	c->m = m;
	c->hw = 1;
	return c;
}

static void test_clocks_hw(pmon_machine_t *m)
{
	struct vctx *c = hw_ctx(m);
	if (!c)
		return;
	c->o.socket = 0;
	c->o.clock_ms = 10;
	c->o.idle_ms = 0;
	c->cpus[0] = 0;
	c->nthreads = 1;
	vgeom_from_hw(m, &c->g);
	CHECK(c->g.uclk_hz == 0 && c->g.dclk_hz == 0 && c->g.qclk_hz == 0 && c->g.pclk_hz == 800e6,
	      "hardware geometry: only PCLK known (%g %g %g %g)", c->g.uclk_hz, c->g.dclk_hz,
	      c->g.qclk_hz, c->g.pclk_hz);
	CHECK_EQ_INT(vclock_measure(c), 0, "clocks measured");
	const struct vclkm *k = &c->hwinfo.clk;
	CHECK(k->measured && k->sec > 0 && k->tol > 0, "a window of machine time (%g s, tol %g)", k->sec,
	      k->tol);
	CHECK(!k->used[VCLK_UCLK] && !k->used[VCLK_DCLK] && !k->used[VCLK_QCLK] && c->g.uclk_hz == 0 &&
	      c->g.dclk_hz == 0 && c->g.qclk_hz == 0, "counters that do not tick: no clock taken");
	CHECK(strstr(k->why[VCLK_UCLK], "outside the 1-4 GHz documented") != NULL, "why: %s",
	      k->why[VCLK_UCLK]);
	CHECK_EQ_INT(exp_clock(c), 0, "the clock kernel runs");
	size_t meas = 0, meas_fail = 0, other = 0;
	for (size_t i = 0; i < c->checks.n; i++) {
		const struct vcheck *v = &c->checks.v[i];
		int is_meas = strstr(v->event, " measured") != NULL;
		meas += is_meas;
		meas_fail += is_meas && !v->pass && v->measured < 1e9 / 4;
		other += !is_meas && !strstr(v->event, "PCU PCLK");
	}
	CHECK(meas == 3 && meas_fail == 3, "UCLK, DCLK, QCLK measured: %zu checks, %zu FAIL", meas, meas_fail);
	CHECK_EQ_INT(other, 0, "no check of UBox, iMC, CBo, HA or QPI clocks at an unknown frequency");
	CHECK(c->nskipped == 5 && c->nskips > 0 && strstr(c->skips[0].what, "its measurement FAILed"),
	      "the 5 clocks that need a measured frequency skipped, saying so (%d: %s)", c->nskipped,
	      c->nskips ? c->skips[0].what : "");
	json_t *j = vhwinfo_json(&c->hwinfo, &c->pf, &c->g);
	json_t *u = json_object_get(json_object_get(j, "clocks_measured"), "uclk");
	json_t *d = json_object_get(json_object_get(j, "clocks_measured"), "dclk");
	CHECK(u && json_is_false(json_object_get(u, "used")) &&
	      strstr(json_string_value(json_object_get(u, "why")), "documented") &&
	      json_integer_value(json_object_get(d, "count")) == 0 && json_is_null(json_object_get(d, "hz")),
	      "clocks_measured: UCLK not used, why; DCLK counted 0");
	json_decref(j);
	vchecks_free(&c->checks);
	free(c);
}

/* On the hardware the DRAM row patterns and the channel probe need the
 * emulated address map: each of their checks is skipped, counted one by
 * one (gen_dram.c: 4 row-hit checks, 2 row-miss with a prefetcher on or 4
 * without, 4 write; gen_chan.c: one a channel).  Each was one skip. */
static void test_hw_skips(pmon_machine_t *m)
{
	struct vctx *c = hw_ctx(m);
	if (!c)
		return;
	c->cpus[0] = 0;
	c->nthreads = 1;
	vgeom_from_hw(m, &c->g);
	CHECK(exp_dram(c) == 0, "dram on the hardware: %s", c->err);
	CHECK_EQ_INT(c->nskipped, 4 + (c->g.prefetch ? 2 : 4) + 4, "dram: each check skipped");
	CHECK_EQ_INT(c->checks.n, 0, "dram: nothing run");
	int before = c->nskipped;
	CHECK_EQ_INT(exp_chan(c), 0, "chan on the hardware");
	CHECK_EQ_INT(c->nskipped - before, c->g.channels, "chan: a check a channel skipped");
	CHECK(c->g.channels == 4, "the fake machine's 4 channels (%d)", c->g.channels);
	vchecks_free(&c->checks);
	free(c);
}

/* pmon-validate on the emulated machine with its prefetchers on: without
 * the option MSR 0x1A4 is recorded as found (0) and left; with
 * --prefetch=off the run's CPUs get bits 0-3 and the run passes with the
 * expectations of no prefetcher. */
static void test_suite_emulated(void)
{
	const char *prog = getenv("PMON_VALIDATE"), *out = getenv("PMON_VALIDATE_OUT");
	char cmd[4096];
	if (!prog || !out) {
		CHECK(0, "PMON_VALIDATE and PMON_VALIDATE_OUT must be set (make check sets them)");
		return;
	}
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", out);
	CHECK(system(cmd) == 0, "mkdir %s", out);
	for (int off = 0; off <= 1; off++) {
		const char *sub = off ? "prefetch-off" : "prefetch-read";
		snprintf(cmd, sizeof(cmd), "env -u PMON_MSR_ROOT -u PMON_PCI_SYSFS -u PMON_CPUINFO "
			 "-u PMON_TOPOLOGY '%s' --quick --backend=sim --shape "
			 "prefetch=on,cores=4,llc=2M,l1=16K,l2=64K --kernels=chan %s -o '%s/%s' "
			 ">/dev/null 2>&1", prog, off ? "--prefetch=off" : "", out, sub);
		int st = system(cmd);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: exit status 0x%x", sub, st);
		json_t *j = vtest_load(out, sub);
		if (!j)
			continue;
		json_t *p = json_object_get(json_object_get(j, "hardware"), "prefetch");
		json_t *c0 = json_array_get(json_object_get(p, "found"), 0);
		const char *v = json_string_value(json_object_get(c0, "msr_0x1a4"));
		const char *run = json_string_value(json_object_get(p, "run"));
		CHECK(v && !strcmp(v, "0x0"), "%s: MSR 0x1A4 found 0 (all on): %s", sub, v ? v : "none");
		CHECK(run && strstr(run, off ? "off: bits 0-3" : "only read"), "%s: run '%s'", sub,
		      run ? run : "");
		CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "no FAIL");
		json_decref(j);
	}
}

int main(void)
{
	test_suite_emulated();
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "could not build the fake device files");
		return check_done("test_vprefetch");
	}
	pmon_machine_t *m = open_world();
	if (m) {
		test_api(m);
		test_read_only(m);
		test_off_restore(m);
		test_hwinfo(m);
		test_clocks_hw(m);
		test_hw_skips(m);
		pmon_machine_close(m);
	}
	test_signal();
	fake_rmtree(base);
	return check_done("test_vprefetch");
}
