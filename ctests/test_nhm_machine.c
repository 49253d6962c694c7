/* test_nhm_machine.c - a Nehalem-EP or Westmere-EP machine is recognised
 * (issue 20 item 2), on fake device files: /proc/cpuinfo naming family 6
 * model 26, 30, 31 (Nehalem-EP) or 37, 44 (Westmere-EP) selects that
 * generation, whose uncore PMU (nhm_unc, wsm_unc) is present on each
 * socket, MSRs only, and the SNB-EP boxes are not; `pmon info` and
 * papi_native_avail show it.  Nehalem-EX (46) and Westmere-EX (47) are
 * refused naming the part; an unreadable cpuinfo names the file.  The
 * guide's spellings (UNC_IMC_NORMAL_READS.ANY, UNC_IMC_WRITES.FULL.ANY,
 * UNC_GQ_ALLOC.RT) count as libpfm4's on either machine. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "catalog.h"
#include "nhm/nhm.h"

static char base[256];
static struct fake_world w;
static char err[1024];

static int world(unsigned model, const char *brand)
{
	if (base[0])
		fake_rmtree(base);
	return fake_tmpdir(base, sizeof(base)) || fake_nhm_world(base, model, brand, &w);
}

/* The guide's spellings (issue 20 item 2), as users type them: Intel's
 * form (no PMU) counts on this machine's generation, the encoding named
 * canonically. */
static void guide_names(pmon_machine_t *m, const char *own)
{
	static const struct { const char *name, *canon; uint64_t ctl; } g[] = {
		{ "UNC_IMC_NORMAL_READS:ANY", "UNC_QMC_NORMAL_READS:ANY", 0x072c },
		{ "UNC_IMC_NORMAL_READS.CH1", "UNC_QMC_NORMAL_READS:CH1", 0x022c },
		{ "UNC_IMC_WRITES.FULL.ANY", "UNC_QMC_WRITES:FULL_ANY", 0x072f },
		{ "UNC_IMC_WRITES.PARTIAL.CH2", "UNC_QMC_WRITES:PARTIAL_CH2", 0x202f },
		{ "UNC_IMC_NORMAL_OCCUPANCY.CH0", "UNC_QMC_OCCUPANCY:CH0", 0x012a },
		{ "UNC_IMC_BUSY.READ.CH0", "UNC_QMC_BUSY:READ_CH0", 0x0129 },
		{ "UNC_GQ_CYCLES_BUSY.READ_TRACKER", "UNC_GQ_CYCLES_NOT_EMPTY:READ_TRACKER", 0x0101 },
		{ "UNC_GQ_ALLOC.PPT", "UNC_GQ_ALLOC:PEER_PROBE_TRACKER", 0x4003 },
		{ "UNC_LLC_MISS.READ", "UNC_LLC_MISS:READ", 0x0109 },
	};
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		pmon_encoding_t e[PMON_MAX_INSTANCES];
		char want[128];
		int n = pmon_machine_encode_all(m, g[i].name, e, PMON_MAX_INSTANCES, err, sizeof(err));
		CHECK_EQ_INT(n, 1, g[i].name);
		if (n != 1)
			continue;
		snprintf(want, sizeof(want), "%s::%s:socket=0", own, g[i].canon);
		CHECK(!strcmp(e[0].name, want), "%s is %s (got %s)", g[i].name, want, e[0].name);
		CHECK_EQ_U64(e[0].ctl, g[i].ctl, g[i].name);
		CHECK_EQ_INT(pmon_machine_encode(m, g[i].name, &e[0], err, sizeof(err)), PMON_OK, err);
		CHECK_EQ_U64(e[0].ctl, g[i].ctl, g[i].name);
	}
	/* the PMU's own form takes the guide's names too */
	char name[96];
	pmon_encoding_t e;
	snprintf(name, sizeof(name), "%s::UNC_GQ_ALLOC:RT", own);
	CHECK_EQ_INT(pmon_machine_encode(m, name, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_U64(e.ctl, 0x0103, name);
	/* a name neither spells is refused, naming it */
	CHECK(pmon_machine_encode(m, "UNC_IMC_NORMAL_READS:CH3", &e, err, sizeof(err)) == PMON_EUMASK &&
	      strstr(err, "CH3"), "an unknown umask named: %s", err);
}

/* Every alias of both tables names an event (and umask) they have, and no
 * alias shadows a name of the catalogue. */
static void aliases_resolve(const struct pmon_box_type *t)
{
	int n = 0;
	for (const struct pmon_alias *a = t->aliases; a && a->name; a++, n++) {
		int ev = -1;
		for (int i = 0; t->events[i].name; i++)
			if (!strcmp(t->events[i].name, a->event))
				ev = i;
		CHECK(ev >= 0, "%s: alias %s names event %s, which it has not", t->name, a->name, a->event);
		if (ev < 0)
			continue;
		const struct pmon_event *e = &t->events[ev];
		if (!a->umask) {
			CHECK(pmon_box_event(t, a->name) == ev, "%s: %s is %s", t->name, a->name, a->event);
			for (int i = 0; t->events[i].name; i++)
				CHECK(strcmp(t->events[i].name, a->name), "%s: alias %s shadows an event",
				      t->name, a->name);
			continue;
		}
		int um = -1;
		for (int u = 0; u < e->numasks; u++) {
			CHECK(strcmp(e->umasks[u].name, a->name), "%s: alias %s shadows a umask of %s",
			      t->name, a->name, e->name);
			if (!strcmp(e->umasks[u].name, a->umask))
				um = u;
		}
		CHECK(um >= 0 && pmon_box_umask(t, e, a->name) == um, "%s: %s:%s is %s", t->name,
		      e->name, a->name, a->umask);
	}
	CHECK_EQ_INT(n, 11, "the guide's eleven other spellings");
}

/* On model: the machine opens, its uncore PMU is `own` on both sockets,
 * `other` and the SNB-EP boxes are on none. */
static void recognised(unsigned model, const char *own, const char *other)
{
	pmon_machine_t *m;
	char what[64];
	snprintf(what, sizeof(what), "model %u", model);
	CHECK_EQ_INT(world(model, "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz"), 0, "fake world");
	int rc = pmon_machine_open(&m, "msr", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return;
	CHECK_EQ_INT(pmon_machine_nsockets(m), 2, what);
	for (int s = 0; s < 2; s++) {
		CHECK_EQ_INT(pmon_machine_pmu_present(m, pmon_pmu_find(own), s), 1, own);
		CHECK_EQ_INT(pmon_machine_pmu_present(m, pmon_pmu_find(other), s), 0, other);
		CHECK_EQ_INT(pmon_machine_pmu_present(m, pmon_pmu_find("snbep_unc_ubox"), s), 0,
			     "no SNB-EP UBox");
		CHECK_EQ_INT(pmon_machine_socket_bus(m, s), -1, "no uncore PCI bus");
	}
	pmon_box_where_t bw;
	CHECK_EQ_INT(pmon_machine_box_where(m, pmon_pmu_find(own), 1, &bw), PMON_OK, "where");
	CHECK_EQ_U64(bw.msr_ctl, 0x3c0, "event selects from MSR 0x3C0");
	CHECK_EQ_U64(bw.msr_ctr, 0x3b0, "counters from MSR 0x3B0");
	CHECK_EQ_INT(bw.ncounters, 8, "eight general counters");
	char desc[8192];
	CHECK_EQ_INT(pmon_machine_describe(m, desc, sizeof(desc)), PMON_OK, "describe");
	CHECK(strstr(desc, "uncore bus") == NULL, "no PCI bus named: %s", desc);
	char line[128];
	snprintf(line, sizeof(line), "  %-18s msr ctl 0x3c0-0x3c7 ctr 0x3b0-0x3b7 (under global control)", own);
	CHECK(strstr(desc, line) != NULL, "%s described: %s", own, desc);
	/* an event of the machine's uncore encodes; one of another generation is absent */
	pmon_encoding_t e;
	char name[96];
	snprintf(name, sizeof(name), "%s::UNC_LLC_MISS:READ:socket=1", own);
	CHECK_EQ_INT(pmon_machine_encode(m, name, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_U64(e.ctl, 0x0109, "UNC_LLC_MISS:READ = umask 0x01, event 0x09");
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD", &e, err, sizeof(err)),
		     PMON_ENODEV, "an SNB-EP box on a Nehalem machine");
	/* named as another generation's, not as missing from one socket */
	snprintf(name, sizeof(name), "this machine is a %s", !strcmp(own, "nhm_unc") ? "Nehalem-EP" :
			 "Westmere-EP");
	CHECK(strstr(err, "snbep_unc_imc0 belongs to the SNB-EP uncore") && strstr(err, name) &&
	      !strstr(err, "socket"), "the SNB-EP box named as SNB-EP's: %s", err);
	snprintf(name, sizeof(name), "%s::UNC_LLC_MISS:READ", other);
	CHECK_EQ_INT(pmon_machine_encode(m, name, &e, err, sizeof(err)), PMON_ENODEV, name);
	CHECK(strstr(err, !strcmp(other, "nhm_unc") ? "the Nehalem-EP uncore" : "the Westmere-EP uncore"),
	      "the other generation's uncore named: %s", err);
	guide_names(m, own);
	pmon_machine_close(m);
}

static void refused(unsigned model, const char *brand, const char *part)
{
	pmon_machine_t *m;
	CHECK_EQ_INT(world(model, brand), 0, "fake world");
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_ENOSUPP, part);
	CHECK(strstr(err, part) && strstr(err, brand) && strstr(err, "uncore"),
	      "names %s, the CPU found and why: %s", part, err);
	CHECK(strstr(err, "PMON_BACKEND=sim") != NULL, "points to the emulator: %s", err);
}

static void tools(void)
{
	char out[65536], cmd[512];
	CHECK_EQ_INT(world(44, "Intel(R) Xeon(R) CPU X5670 @ 2.93GHz"), 0, "fake world");
	CHECK_EQ_INT(fake_run_tool("info", out, sizeof(out)), 0, out);
	CHECK(strstr(out, "family 6 model 44") != NULL, "pmon info names the model: %s", out);
	CHECK(strstr(out, "wsm_unc            msr ctl 0x3c0-0x3c7") != NULL,
	      "pmon info lists wsm_unc: %s", out);
	CHECK(strstr(out, "snbep_unc") == NULL, "no SNB-EP box: %s", out);
	/* PAPI: the component lists the boxes present (PAPI's tool, this machine) */
	const char *bin = getenv("PMON_PAPI_BIN");
	snprintf(cmd, sizeof(cmd), "%s/papi_native_avail 2>&1", bin && *bin ? bin : "build/bin");
	size_t cap = 1 << 22, n = 0, got;
	char *all = malloc(cap);
	FILE *p = all ? popen(cmd, "r") : NULL;
	while (p && n < cap - 1 && (got = fread(all + n, 1, cap - 1 - n, p)) > 0)
		n += got;
	if (!all)
		return;
	all[n] = 0;
	CHECK(p && pclose(p) == 0, "papi_native_avail runs: %.300s", all);
	CHECK(strstr(all, "pmon:::wsm_unc::UNC_QMC_NORMAL_READS") != NULL,
	      "papi_native_avail lists wsm_unc's events: %.2000s", all);
	CHECK(strstr(all, "pmon:::wsm_unc::UNC_TURBO_MODE") != NULL, "a Westmere-only event");
	CHECK(strstr(all, "pmon:::nhm_unc::") == NULL, "not Nehalem's PMU");
	CHECK(strstr(all, "pmon:::snbep_unc") == NULL, "no SNB-EP box");
	free(all);
}

int main(void)
{
	static const unsigned nhm[] = { 26, 30, 31 }, wsm[] = { 37, 44 };
	aliases_resolve(&pmon_nhm_unc);
	aliases_resolve(&pmon_wsm_unc);
	for (int i = 0; i < 3; i++)
		recognised(nhm[i], "nhm_unc", "wsm_unc");
	for (int i = 0; i < 2; i++)
		recognised(wsm[i], "wsm_unc", "nhm_unc");
	refused(46, "Intel(R) Xeon(R) CPU X7560 @ 2.27GHz", "Nehalem-EX");
	refused(47, "Intel(R) Xeon(R) CPU E7-4870 @ 2.40GHz", "Westmere-EX");
	/* cpuinfo unreadable: the file is named, no generation is assumed */
	pmon_machine_t *m;
	setenv("PMON_CPUINFO", "/nonexistent/cpuinfo", 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_ENOSUPP, "no cpuinfo");
	CHECK(strstr(err, "/nonexistent/cpuinfo unreadable") && !strstr(err, "SNB-EP"),
	      "names the file, assumes no generation: %s", err);
	tools();
	/* without a machine, an Intel name of both generations' PMUs is not a sum */
	pmon_encoding_t e;
	CHECK_EQ_INT(pmon_encode("UNC_LLC_MISS:READ", 0, 0, &e, err, sizeof(err)), PMON_EINVAL,
		     "no machine: which generation is unknown");
	CHECK(strstr(err, "several generations") && strstr(err, "nhm_unc::UNC_LLC_MISS:READ"),
	      "says so, naming a PMU: %s", err);
	char out[4096];
	CHECK_EQ_INT(fake_run_tool("encode UNC_LLC_MISS:READ", out, sizeof(out)), 0, out);
	CHECK(strstr(out, "= on the machine's generation: nhm_unc::UNC_LLC_MISS:READ\n"
			  "    or wsm_unc::UNC_LLC_MISS:READ") && !strstr(out, "sum"),
	      "pmon encode lists the generations' PMUs, not a sum: %s", out);
	fake_rmtree(base);
	return check_done("test_nhm_machine");
}
