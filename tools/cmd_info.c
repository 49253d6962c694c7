/* cmd_info.c - pmon info (backend, CPU, sockets, boxes and their registers,
 * controls another agent has enabled) and pmon reset (put back what a
 * crashed count left). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static json_t *box_json(const char *name, const pmon_box_where_t *w)
{
	char pci[32];
	if (!w->pci)
		return json_pack("{s:s, s:s, s:o, s:o, s:i, s:b}", "pmu", name, "space", "msr", "ctl",
				 hex(w->msr_ctl), "ctr", hex(w->msr_ctr), "counters", w->ncounters,
				 "box_control", w->has_box_ctl);
	snprintf(pci, sizeof(pci), "%04x:%02x:%02x.%x", w->domain, w->bus, w->dev, w->func);
	return json_pack("{s:s, s:s, s:s, s:i, s:b}", "pmu", name, "space", "pci", "address", pci,
			 "counters", w->ncounters, "match_mask_function", w->has_extra);
}

/* Enabled uncore controls of each socket (reads only): another agent is
 * counting.  Kept per socket for --json; one warning line per socket (the
 * first PMON_ENABLED_NAMED named, then "and N more") added to warn. */
#define ENABLED_MAX 64
#define PMON_MAX_SOCKETS_TOOL 8   /* sockets scanned (SNB-EP: at most 2, 4 with 4S parts) */
struct enabled_scan {
	int n[PMON_MAX_SOCKETS_TOOL];              /* how many (< 0: the read failed) */
	pmon_enabled_ctl_t ctl[PMON_MAX_SOCKETS_TOOL][ENABLED_MAX];
};

static void scan_enabled(pmon_machine_t *m, struct enabled_scan *sc, char *warn, size_t len)
{
	size_t at = strlen(warn);
	for (int s = 0; s < pmon_machine_nsockets(m) && s < PMON_MAX_SOCKETS_TOOL; s++) {
		char why[512];
		int n = sc->n[s] = pmon_machine_enabled_ctls(m, s, sc->ctl[s], ENABLED_MAX, why, sizeof why);
		if (n == 0 || at >= len)
			continue;
		if (n < 0) {
			at += (size_t)snprintf(warn + at, len - at, "%ssocket %d: could not read the PMON "
					       "controls: %s", at ? "\n" : "", s, why);
			continue;
		}
		at += (size_t)snprintf(warn + at, len - at, "%ssocket %d: %d PMON control(s) enabled by "
				       "another agent (perf, PCM, another tool or pmon process), pmon "
				       "will not use them: ", at ? "\n" : "", s, n);
		if (at < len) {
			pmon_enabled_ctls_text(warn + at, len - at, sc->ctl[s], n);
			at += strlen(warn + at);
		}
	}
}

static json_t *enabled_json(const struct enabled_scan *sc, int s)
{
	json_t *a = json_array();
	for (int i = 0; s < PMON_MAX_SOCKETS_TOOL && i < sc->n[s] && i < ENABLED_MAX; i++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(sc->ctl[s][i].pmu, &pi);
		json_array_append_new(a, json_pack("{s:s, s:s, s:o}", "pmu", pi.name, "register",
						   sc->ctl[s][i].reg, "value", hex(sc->ctl[s][i].value)));
	}
	return a;
}

static json_t *info_json(const pmon_machine_t *m, const struct enabled_scan *sc, const char *warn)
{
	json_t *sockets = json_array(), *core = json_array();
	for (int s = 0; s < pmon_machine_nsockets(m); s++) {
		json_t *boxes = json_array();
		for (int p = 0; p < pmon_pmu_count(); p++) {
			pmon_pmu_info_t pi;
			pmon_box_where_t w;
			pmon_pmu_get(p, &pi);
			if (pmon_machine_box_where(m, p, s, &w) == PMON_OK)
				json_array_append_new(boxes, box_json(pi.name, &w));
		}
		json_array_append_new(sockets, json_pack("{s:i, s:i, s:i, s:o, s:o}", "socket", s, "bus",
							 pmon_machine_socket_bus(m, s), "first_cpu",
							 pmon_machine_socket_cpu(m, s), "boxes", boxes,
							 "enabled_controls", enabled_json(sc, s)));
	}
	for (int p = 0; p < pmon_pmu_count(); p++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(p, &pi);
		if (pi.per_cpu && pmon_machine_pmu_present(m, p, 0))
			json_array_append_new(core, json_pack("{s:s, s:i}", "pmu", pi.name, "counters",
							      pi.ncounters));
	}
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:s}", "version", PMON_VERSION_STRING,
			 "backend", pmon_machine_backend(m), "cpu", pmon_machine_cpu_name(m), "sockets",
			 pmon_machine_nsockets(m), "cpus", pmon_machine_ncpus(m), "socket_list", sockets,
			 "core_pmus", core, "warnings", warn);
}

/* The machine (PMON_BACKEND's), or NULL after saying why on stderr. */
static pmon_machine_t *open_machine(void)
{
	pmon_machine_t *m;
	char why[1024];
	if (pmon_machine_open(&m, NULL, why, sizeof(why))) {
		fprintf(stderr, "pmon: %s\n", why);
		return NULL;
	}
	return m;
}

int cmd_info(int argc, char **argv, const struct opts *o)
{
	pmon_machine_t *m;
	static char buf[65536];
	(void)argc;
	(void)argv;
	if (!(m = open_machine()))
		return 1;
	static struct enabled_scan sc;
	static char warn[16384];
	int rc = 0;
	snprintf(warn, sizeof(warn), "%s", pmon_machine_warnings(m));
	size_t had = strlen(warn);
	scan_enabled(m, &sc, warn, sizeof(warn));
	if (o->json) {
		rc = emit_json(info_json(m, &sc, warn));
	} else {
		pmon_machine_describe(m, buf, sizeof(buf));
		fputs(buf, stdout);
		if (strlen(warn) > had)   /* describe printed the machine's own warnings */
			printf("%s%s\n", had ? "" : "warnings:\n", warn + had + (had ? 1 : 0));
	}
	pmon_machine_close(m);
	return rc;
}

int cmd_reset(int argc, char **argv, const struct opts *o)
{
	pmon_machine_t *m;
	static char report[16384];
	(void)argc;
	(void)argv;
	if (!(m = open_machine()))
		return 1;
	int rc = pmon_machine_reset_with(m, o->socket, o->reset, report, sizeof(report));
	fprintf(rc ? stderr : stdout, "%s%s\n", rc ? "pmon reset: " : "", report);
	pmon_machine_close(m);
	return rc ? 1 : 0;
}
