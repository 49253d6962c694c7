#define _GNU_SOURCE
/*
 * pmon - list, encode and locate SNB-EP uncore and offcore-response events.
 *
 *   pmon list [PATTERN]    events (and umasks) per PMU, with short descriptions
 *   pmon encode EVENT...   one line per event: event= box= ctl= filter= counters=
 *   pmon info              backend, CPU, sockets, boxes and their registers
 *
 * list and encode need no hardware access; info opens the machine
 * ($PMON_BACKEND, e.g. PMON_BACKEND=sim).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmon list [PATTERN]\n"
		   "       pmon encode EVENT...\n"
		   "       pmon info\n"
		   "PATTERN is a shell glob matched against PMU::EVENT (case-insensitive);\n"
		   "a plain word matches any name containing it.\n");
}

static int matches(const char *pattern, const char *name)
{
	char glob[512];
	if (!pattern)
		return 1;
	if (strpbrk(pattern, "*?["))
		snprintf(glob, sizeof(glob), "%s", pattern);
	else
		snprintf(glob, sizeof(glob), "*%s*", pattern);
	return fnmatch(glob, name, FNM_CASEFOLD) == 0;
}

static void counters_text(uint32_t mask, int fixed, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	if (fixed) {
		snprintf(buf, len, "fixed");
		return;
	}
	for (int c = 0; c < 32 && n < len;) {
		if (!(mask & (1u << c))) {
			c++;
			continue;
		}
		int e = c;
		while (e + 1 < 32 && (mask & (1u << (e + 1))))
			e++;
		n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
		if (e > c)
			n += (size_t)snprintf(buf + n, len - n, "-%d", e);
		c = e + 1;
	}
}

static int cmd_list(const char *pattern)
{
	int np = pmon_pmu_count(), shown = 0;
	char full[PMON_MAX_NAME], ctr[64];
	for (int p = 0; p < np; p++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(p, &pi);
		int header = 0;
		for (int e = 0; e < pmon_event_count(p); e++) {
			pmon_event_info_t ei;
			pmon_event_get(p, e, &ei);
			snprintf(full, sizeof(full), "%s::%s", pi.name, ei.name);
			if (!matches(pattern, full))
				continue;
			if (!header) {
				printf("%s  (%s, %d counters of %d bits%s%s)\n", pi.name, pi.desc, pi.ncounters,
				       pi.width, pi.has_fixed ? ", fixed counter" : "",
				       pi.per_cpu ? ", per CPU: cpu=N" : ", per socket: socket=N");
				header = 1;
			}
			counters_text(ei.cntmask, ei.fixed, ctr, sizeof(ctr));
			printf("  %-40s ctrs %-5s %s%s\n", full, ctr, ei.modeled ? "" : "[not modeled] ",
			       ei.desc);
			/* when the bare name is not enough, show a complete one */
			pmon_encoding_t enc;
			char err[256], example[PMON_MAX_NAME];
			if (pmon_encode(full, 0, 0, &enc, err, sizeof(err)) &&
			    pmon_event_example(p, e, -1, example, sizeof(example)) == PMON_OK)
				printf("      example: %s\n", example);
			for (int u = 0; u < ei.numasks; u++) {
				pmon_umask_info_t ui;
				pmon_umask_get(p, e, u, &ui);
				printf("      :%-34s %s%s%s\n", ui.name, ui.modeled ? "" : "[not modeled] ",
				       ui.desc, ui.is_default ? " (default)" : "");
			}
			int nm = pmon_mod_count(p, e);
			for (int m = 0; m < nm; m++) {
				pmon_mod_info_t mi;
				pmon_mod_get(p, e, m, &mi);
				printf("      :%s=<%llu-%llu>%*s %s\n", mi.name, (unsigned long long)mi.min,
				       (unsigned long long)mi.max, 1, "", mi.desc);
			}
			shown++;
		}
	}
	if (!shown) {
		fprintf(stderr, "pmon: no event matches '%s'\n", pattern ? pattern : "");
		return 1;
	}
	return 0;
}

static int cmd_encode(int argc, char **argv)
{
	int bad = 0;
	char err[512], ctr[64];
	for (int i = 0; i < argc; i++) {
		pmon_encoding_t e;
		int rc = pmon_encode(argv[i], 0, 0, &e, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pmon: %s: %s\n", argv[i], err);
			bad = 1;
			continue;
		}
		pmon_pmu_info_t pi;
		pmon_pmu_get(e.pmu, &pi);
		counters_text(e.cntmask, e.fixed, ctr, sizeof(ctr));
		/* filter= is the first filter word the event programs (CBo/PCU
		 * filter, HA address match, QPI match, the offcore MSR of the
		 * event); any further programmed word follows as filterN= */
		int word = -1;
		for (int w = 0; w < PMON_FILTER_WORDS && word < 0; w++)
			if (e.filt_used & (1u << w))
				word = w;
		printf("event=%s box=%s ctl=0x%llx filter=0x%llx counters=%s", e.name, pi.name,
		       (unsigned long long)e.ctl,
		       (unsigned long long)(word >= 0 ? e.filt[word] : 0), ctr);
		for (int w = word + 1; word >= 0 && w < PMON_FILTER_WORDS; w++)
			if (e.filt_used & (1u << w))
				printf(" filter%d=0x%llx", w, (unsigned long long)e.filt[w]);
		printf("\n");
	}
	return bad;
}

static int cmd_info(void)
{
	pmon_machine_t *m;
	char why[1024];
	static char buf[65536];
	int rc = pmon_machine_open(&m, NULL, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "pmon: %s\n", why);
		return 1;
	}
	pmon_machine_describe(m, buf, sizeof(buf));
	fputs(buf, stdout);
	pmon_machine_close(m);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "list") && argc <= 3)
		return cmd_list(argc == 3 ? argv[2] : NULL);
	if (!strcmp(argv[1], "encode") && argc >= 3)
		return cmd_encode(argc - 2, argv + 2);
	if (!strcmp(argv[1], "info") && argc == 2)
		return cmd_info();
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
