/*
 * hwinfo.c - read and record the machine's identity and settings (hwinfo.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <pmon/platform.h>

#include "hwinfo.h"

static void rd(struct vmsr_read *r, pmon_machine_t *m, int cpu, uint32_t msr)
{
	r->msr = msr;
	r->ok = pmon_machine_platform_read(m, cpu, msr, &r->val, r->why, sizeof(r->why)) == 0;
}

/* The first line of path, whitespace trimmed; 0 or -1. */
static int line_of(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static long num_of(const char *dir, int cpu, const char *name)
{
	char path[512], buf[64], *end;
	snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/%s", dir, cpu, name);
	if (line_of(path, buf, sizeof(buf)) != 0)
		return -1;
	long v = strtol(buf, &end, 10);
	return end != buf && *end == 0 && v >= 0 ? v : -1;
}

static void microcode(struct vhwinfo *h, const char *cpuinfo)
{
	char line[256];
	FILE *f = fopen(cpuinfo, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "microcode", 9) != 0)
			continue;
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, " \t\n")] = 0;
		snprintf(h->microcode, sizeof(h->microcode), "%s", v);
		break;
	}
	fclose(f);
}

static void cpuidle(struct vhwinfo *h, const char *dir, int cpu)
{
	size_t at = 0;
	for (int s = 0; s < 16; s++) {
		char path[512], name[32], dis[16];
		snprintf(path, sizeof(path), "%s/cpu%d/cpuidle/state%d/name", dir, cpu, s);
		if (line_of(path, name, sizeof(name)) != 0)
			break;
		snprintf(path, sizeof(path), "%s/cpu%d/cpuidle/state%d/disable", dir, cpu, s);
		int off = line_of(path, dis, sizeof(dis)) == 0 && strcmp(dis, "0") != 0;
		int n = snprintf(h->idle + at, sizeof(h->idle) - at, "%s%s %s", at ? ", " : "", name,
				 off ? "off" : "on");
		if (n < 0 || (size_t)n >= sizeof(h->idle) - at)
			break;
		at += (size_t)n;
	}
	if (!at)
		snprintf(h->idle_why, sizeof(h->idle_why), "no cpuidle states under %s/cpu%d", dir, cpu);
}

void vhwinfo_read(struct vhwinfo *h, pmon_machine_t *m, int hw, const int *cpus, int n,
		  const char *sysfs_cpu, const char *cpuinfo)
{
	struct utsname u;
	const char *dir = sysfs_cpu ? sysfs_cpu : "/sys/devices/system/cpu";

	memset(h, 0, sizeof(*h));
	h->hw = hw;
	h->cpu0 = n > 0 ? cpus[0] : 0;
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s %s", u.sysname, u.release, u.version,
			 u.machine);
	snprintf(h->cpu, sizeof(h->cpu), "%s", pmon_machine_cpu_name(m));
	rd(&h->misc_enable, m, h->cpu0, PMON_MSR_MISC_ENABLE);
	rd(&h->turbo_limit, m, h->cpu0, PMON_MSR_TURBO_RATIO_LIMIT);
	rd(&h->platform_info, m, h->cpu0, PMON_MSR_PLATFORM_INFO);
	rd(&h->cst_config, m, h->cpu0, PMON_MSR_PKG_CST_CONFIG);
	if (!hw)
		return;
	microcode(h, cpuinfo ? cpuinfo : "/proc/cpuinfo");
	for (int i = 0; i < n && h->nfreq < 16; i++) {
		struct vfreq *f = &h->freq[h->nfreq++];
		char path[512];
		f->cpu = cpus[i];
		f->cur_khz = num_of(dir, cpus[i], "scaling_cur_freq");
		f->min_khz = num_of(dir, cpus[i], "scaling_min_freq");
		f->max_khz = num_of(dir, cpus[i], "scaling_max_freq");
		snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/scaling_governor", dir, cpus[i]);
		if (line_of(path, f->governor, sizeof(f->governor)) != 0)
			f->governor[0] = 0;
	}
	cpuidle(h, dir, h->cpu0);
}

static json_t *hex(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%llx", (unsigned long long)v);
	return json_string(b);
}

static json_t *khz(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* An MSR's value, or {"error": why}. */
static json_t *msr_json(const struct vmsr_read *r)
{
	json_t *o = json_object();
	char a[16];
	snprintf(a, sizeof(a), "0x%x", r->msr);
	json_object_set_new(o, "msr", json_string(a));
	json_object_set_new(o, "value", r->ok ? hex(r->val) : json_null());
	if (!r->ok)
		json_object_set_new(o, "error", json_string(r->why));
	return o;
}

static json_t *hz(double v)
{
	return v > 0 ? json_real(v) : json_null();
}

/* The clocks the run measured (exp_clock.c), or null when it knew them. */
static json_t *clocks_measured(const struct vclkm *k)
{
	static const char *const name[VCLK_N] = { "uclk", "dclk", "qclk" };
	static const char *const ev[VCLK_N] = { "snbep_unc_ubo::UNC_U_CLOCKTICKS",
						"snbep_unc_imc0::UNC_M_CLOCKTICKS",
						"snbep_unc_qpi0::UNC_Q_CLOCKTICKS" };
	if (!k->measured)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "window_s", json_real(k->sec));
	json_object_set_new(o, "tolerance", json_real(k->tol));
	if (k->broken)
		json_object_set_new(o, "break", json_string("--break=clock: UCLK recorded 10% high"));
	for (int i = 0; i < VCLK_N; i++) {
		json_t *c = json_object();
		json_object_set_new(c, "event", json_string(ev[i]));
		json_object_set_new(c, "count", json_integer((json_int_t)k->count[i]));
		json_object_set_new(c, "hz", k->hz[i] > 0 ? json_real(k->hz[i]) : json_null());
		json_object_set_new(c, "used", json_boolean(k->used[i]));
		if (k->why[i][0])
			json_object_set_new(c, "why", json_string(k->why[i]));
		json_object_set_new(o, name[i], c);
	}
	return o;
}

json_t *vhwinfo_json(const struct vhwinfo *h, const struct vpf *pf, const struct vgeom *g)
{
	json_t *o = json_object(), *p = json_object(), *cpus = json_array();

	json_object_set_new(o, "cpu", json_string(h->cpu));
	json_object_set_new(o, "kernel", json_string(h->kernel));
	json_object_set_new(o, "microcode", h->microcode[0] ? json_string(h->microcode) : json_null());
	/* The prefetchers: MSR 0x1A4 as found on each CPU of the run (with
	 * --prefetch=off, then on every other CPU of the machine). */
	for (int i = 0; i < pf->n; i++) {
		json_t *c = json_object();
		json_object_set_new(c, "cpu", json_integer(pf->cpu[i]));
		if (pf->ok[i]) {
			json_object_set_new(c, "msr_0x1a4", hex(pf->found[i]));
			json_object_set_new(c, "off_bits", json_integer((json_int_t)(pf->found[i] & 0xf)));
		} else {
			json_object_set_new(c, "error", json_string(pf->why[i]));
		}
		json_array_append_new(cpus, c);
	}
	json_object_set_new(p, "found", cpus);
	json_object_set_new(p, "run", json_string(pf->off ? "off: bits 0-3 of MSR 0x1A4 set by "
					    "--prefetch=off on every CPU of the machine, put back at the end"
					    : "as found (MSR 0x1A4 only read)"));
	json_object_set_new(o, "prefetch", p);
	/* Turbo: IA32_MISC_ENABLE bit 38 set = turbo disengaged. */
	json_object_set_new(o, "turbo", h->misc_enable.ok ? json_boolean(!((h->misc_enable.val >> 38) & 1))
							  : json_null());
	json_object_set_new(o, "misc_enable", msr_json(&h->misc_enable));
	json_object_set_new(o, "turbo_ratio_limit", msr_json(&h->turbo_limit));
	json_object_set_new(o, "platform_info", msr_json(&h->platform_info));
	/* SNB-EP: the base ratio (bits 15:8) times the 100 MHz bus clock. */
	json_object_set_new(o, "base_mhz", h->platform_info.ok
				   ? json_integer((json_int_t)((h->platform_info.val >> 8) & 0xff) * 100)
				   : json_null());
	json_object_set_new(o, "pkg_cst_config", msr_json(&h->cst_config));
	json_object_set_new(o, "pkg_cstate_limit", h->cst_config.ok
					   ? json_integer((json_int_t)(h->cst_config.val & 7)) : json_null());
	json_object_set_new(o, "msr_cpu", json_integer(h->cpu0));
	if (h->hw) {
		json_t *fa = json_array();
		for (int i = 0; i < h->nfreq; i++) {
			json_t *f = json_object();
			json_object_set_new(f, "cpu", json_integer(h->freq[i].cpu));
			json_object_set_new(f, "cur_khz", khz(h->freq[i].cur_khz));
			json_object_set_new(f, "min_khz", khz(h->freq[i].min_khz));
			json_object_set_new(f, "max_khz", khz(h->freq[i].max_khz));
			json_object_set_new(f, "governor", h->freq[i].governor[0]
						   ? json_string(h->freq[i].governor) : json_null());
			json_array_append_new(fa, f);
		}
		json_object_set_new(o, "cpufreq", fa);
		json_object_set_new(o, "cpuidle", h->idle[0] ? json_string(h->idle) : json_null());
		if (!h->idle[0])
			json_object_set_new(o, "cpuidle_error", json_string(h->idle_why));
	}
	/* The clocks the suite used (the emulated shape's, documented, or
	 * measured: clocks_measured). */
	json_t *clk = json_object();
	json_object_set_new(clk, "dram_hz", hz(g->dclk_hz));
	json_object_set_new(clk, "uncore_hz", hz(g->uclk_hz));
	json_object_set_new(clk, "qpi_hz", hz(g->qclk_hz));
	json_object_set_new(clk, "pcu_hz", hz(g->pclk_hz));
	json_object_set_new(clk, "tsc_hz", hz(g->tsc_hz));
	json_object_set_new(o, "clocks", clk);
	json_object_set_new(o, "clocks_measured", clocks_measured(&h->clk));
	return o;
}
