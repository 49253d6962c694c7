#define _GNU_SOURCE
/*
 * pmon - list, encode and locate SNB-EP uncore and offcore-response events.
 *
 *   pmon [--help | --version]
 *   pmon list [--json] [PATTERN]    events (and umasks) per PMU
 *   pmon list --metrics [--json] [PATTERN]   derived metrics (stat_out.c)
 *   pmon stat [options] -- COMMAND  count metrics and events while COMMAND
 *                                   runs (stat.c; its row has no run: it
 *                                   parses its own options)
 *   pmon encode [--json] EVENT...   event= box= ctl= filter= counters= per event
 *   pmon info [--json]              backend, CPU, sockets, boxes and their registers
 *   pmon reset [--socket N] [--all [--force]]
 *                                   put the registers back after a crashed count
 *
 * list and encode need no hardware access; info opens the machine
 * ($PMON_BACKEND, e.g. PMON_BACKEND=sim).  --json writes one JSON document
 * (jansson) instead of the text.
 *
 * Subcommands are rows of the commands[] table: a name, its synopsis, a
 * one-line summary, which options it takes, how many operands, and the
 * function that runs it with its operands.  Within a command, options and
 * operands come in any order (GNU style); "--" ends the options.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pmon/pmon.h"
#include "stat.h"

/* Options every subcommand is parsed with. */
struct opts {
	int json;
	int socket;               /* --socket N, -1 when not given */
	unsigned reset;           /* reset: --all, --force (PMON_RESET_*) */
	int metrics;              /* list --metrics */
};

struct command {
	const char *name, *synopsis, *summary;
	int takes_json, takes_socket;
	int min_operands, max_operands;   /* max -1: no limit */
	const char *operands;             /* what it takes, for the usage errors */
	int (*run)(int argc, char **argv, const struct opts *o);
	const char *detail;               /* more for pmon COMMAND --help, or NULL */
};

/* ------------------------------------------------------------------ output */

/* Print a JSON document on stdout and free it; 1 if it could not be built. */
static int emit_json(json_t *doc)
{
	if (!doc) {
		fprintf(stderr, "pmon: out of memory building the JSON output\n");
		return 1;
	}
	int rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc == 0)
		putchar('\n');
	return rc ? 1 : 0;
}

static json_t *hex(uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return json_string(buf);
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

/* The general counters as a JSON array of numbers (empty for an event of
 * the fixed counter, which "fixed_counter" says). */
static json_t *counters_json(uint32_t mask, int fixed)
{
	json_t *a = json_array();
	for (int c = 0; c < 32 && !fixed; c++)
		if (mask & (1u << c))
			json_array_append_new(a, json_integer(c));
	return a;
}

/* -------------------------------------------------------------------- list */

/* When the bare name does not encode, a complete one; else "". */
static void example_of(int p, int e, const char *full, char *buf, size_t len)
{
	pmon_encoding_t enc;
	char err[256];
	buf[0] = 0;
	if (pmon_encode(full, 0, 0, &enc, err, sizeof(err)) &&
	    pmon_event_example(p, e, -1, buf, len) != PMON_OK)
		buf[0] = 0;
}

static void list_event_text(int p, int e, const pmon_event_info_t *ei, const char *full)
{
	char ctr[64], example[PMON_MAX_NAME];
	counters_text(ei->cntmask, ei->fixed, ctr, sizeof(ctr));
	printf("  %-40s ctrs %-5s %s%s\n", full, ctr, ei->modeled ? "" : "[not modeled] ", ei->desc);
	example_of(p, e, full, example, sizeof(example));
	if (example[0])
		printf("      example: %s\n", example);
	for (int u = 0; u < ei->numasks; u++) {
		pmon_umask_info_t ui;
		pmon_umask_get(p, e, u, &ui);
		printf("      :%-34s %s%s%s\n", ui.name, ui.modeled ? "" : "[not modeled] ", ui.desc,
		       ui.is_default ? " (default)" : "");
	}
	for (int m = 0; m < pmon_mod_count(p, e); m++) {
		pmon_mod_info_t mi;
		pmon_mod_get(p, e, m, &mi);
		printf("      :%s=<%llu-%llu>%*s %s\n", mi.name, (unsigned long long)mi.min,
		       (unsigned long long)mi.max, 1, "", mi.desc);
	}
}

static json_t *list_event_json(int p, int e, const pmon_event_info_t *ei, const char *full)
{
	char example[PMON_MAX_NAME];
	json_t *um = json_array(), *mods = json_array();
	pmon_unit_t unit;
	for (int u = 0; u < ei->numasks; u++) {
		pmon_umask_info_t ui;
		pmon_umask_get(p, e, u, &ui);
		if (pmon_event_unit(p, e, u, &unit))
			unit.unit = "";
		json_array_append_new(um, json_pack("{s:s, s:o, s:s, s:b, s:b, s:s}", "name", ui.name,
						    "value", hex(ui.value), "desc", ui.desc, "default",
						    ui.is_default, "modeled", ui.modeled, "unit", unit.unit));
	}
	if (pmon_event_unit(p, e, -1, &unit))
		unit.unit = "", unit.bytes = 0;
	for (int m = 0; m < pmon_mod_count(p, e); m++) {
		pmon_mod_info_t mi;
		pmon_mod_get(p, e, m, &mi);
		json_array_append_new(mods, json_pack("{s:s, s:s, s:I, s:I}", "name", mi.name, "desc", mi.desc,
						      "min", (json_int_t)mi.min, "max", (json_int_t)mi.max));
	}
	example_of(p, e, full, example, sizeof(example));
	return json_pack("{s:s, s:s, s:o, s:s, s:o, s:b, s:b, s:s, s:f, s:s?, s:o, s:o}", "name",
			 ei->name, "full_name", full, "code", hex(ei->code), "desc", ei->desc, "counters",
			 counters_json(ei->cntmask, ei->fixed), "fixed_counter", ei->fixed, "modeled",
			 ei->modeled, "unit", unit.unit, "bytes_per_count", unit.bytes, "example",
			 example[0] ? example : NULL, "umasks", um, "modifiers", mods);
}

static json_t *pmu_json(const pmon_pmu_info_t *pi)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:b, s:s, s:[]}", "name", pi->name, "box_type",
			 pi->box_type, "desc", pi->desc, "counters", pi->ncounters, "width", pi->width,
			 "fixed_counter", pi->has_fixed, "qualifier", pi->per_cpu ? "cpu" : "socket",
			 "events");
}

static int cmd_list(int argc, char **argv, const struct opts *o)
{
	const char *pattern = argc ? argv[0] : NULL;
	if (o->metrics)
		return stat_list_metrics(pattern, o->json);
	int np = pmon_pmu_count(), shown = 0;
	char full[PMON_MAX_NAME];
	json_t *pmus = o->json ? json_array() : NULL;
	for (int p = 0; p < np; p++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(p, &pi);
		json_t *jp = NULL;
		int header = 0;
		for (int e = 0; e < pmon_event_count(p); e++) {
			pmon_event_info_t ei;
			pmon_event_get(p, e, &ei);
			snprintf(full, sizeof(full), "%s::%s", pi.name, ei.name);
			if (!matches(pattern, full))
				continue;
			if (o->json) {
				if (!jp)
					json_array_append_new(pmus, jp = pmu_json(&pi));
				json_array_append_new(json_object_get(jp, "events"),
						      list_event_json(p, e, &ei, full));
			} else {
				if (!header++)
					printf("%s  (%s, %d counters of %d bits%s%s)\n", pi.name, pi.desc,
					       pi.ncounters, pi.width, pi.has_fixed ? ", fixed counter" : "",
					       pi.per_cpu ? ", per CPU: cpu=N" : ", per socket: socket=N");
				list_event_text(p, e, &ei, full);
			}
			shown++;
		}
	}
	if (!shown) {
		char msg[600];
		snprintf(msg, sizeof(msg), "no event matches '%s'", pattern ? pattern : "");
		fprintf(stderr, "pmon: %s\n", msg);
		/* still one JSON document: no PMU, and the error */
		if (o->json)
			emit_json(json_pack("{s:s, s:o, s:s}", "version", PMON_VERSION_STRING, "pmus", pmus,
					    "error", msg));
		return 1;
	}
	return o->json ? emit_json(json_pack("{s:s, s:o}", "version", PMON_VERSION_STRING, "pmus", pmus))
		       : 0;
}

/* ------------------------------------------------------------------ encode */

/* The first filter word the event programs (CBo/PCU filter, HA address
 * match, QPI match, the offcore MSR of the event), or -1. */
static int first_filter(const pmon_encoding_t *e)
{
	for (int w = 0; w < PMON_FILTER_WORDS; w++)
		if (e->filt_used & (1u << w))
			return w;
	return -1;
}

/* The unit of an encoded event as text ("" when it has none). */
static const char *unit_of(const pmon_encoding_t *e)
{
	pmon_unit_t u;
	return pmon_encoding_unit(e, &u) == PMON_OK ? u.unit : "";
}

static void encode_text(const pmon_encoding_t *e, const pmon_pmu_info_t *pi)
{
	char ctr[64];
	int word = first_filter(e);
	counters_text(e->cntmask, e->fixed, ctr, sizeof(ctr));
	/* any further programmed word follows as filterN= */
	printf("event=%s box=%s ctl=0x%llx filter=0x%llx counters=%s", e->name, pi->name,
	       (unsigned long long)e->ctl, (unsigned long long)(word >= 0 ? e->filt[word] : 0), ctr);
	for (int w = word + 1; word >= 0 && w < PMON_FILTER_WORDS; w++)
		if (e->filt_used & (1u << w))
			printf(" filter%d=0x%llx", w, (unsigned long long)e->filt[w]);
	if (unit_of(e)[0])
		printf(" unit=\"%s\"", unit_of(e));
	printf("\n");
}

static const char *const form_names[] = { "pmon", "perf", "intel" };

/* How a name of perf or Intel maps to pmon's, before its encodings. */
static void map_text(const char *input, const pmon_name_map_t *map)
{
	if (map->form == PMON_FORM_PMON)
		return;
	printf("%s (%s's name) = %s%s\n", input, form_names[map->form],
	       map->ninstances > 1 ? "the sum of: " : "", map->pmon[0]);
	for (int i = 1; i < map->ninstances; i++)
		printf("    + %s\n", map->pmon[i]);
	if (map->perf_scale > 0)
		printf("    perf scales it: count x %.10g = %s\n", map->perf_scale, map->perf_unit);
	if (map->note[0])
		printf("    note: %s\n", map->note);
}

/* The hint for PAPI users (the last line): the names need the component's
 * prefix; a bare name goes to PAPI's perf_event component, whose libpfm4
 * does not know pmon's PMUs. */
static void papi_hint(const char *input)
{
	const char *name = strncmp(input, "pmon:::", 7) ? input : input + 7;
	printf("hint: in PAPI, name it pmon:::%s (without pmon::: PAPI hands the name to "
		"its perf_event component, which refuses it)\n", name);
}

static json_t *encode_json(const pmon_encoding_t *e, const pmon_pmu_info_t *pi)
{
	int word = first_filter(e);
	pmon_event_info_t ei;
	pmon_unit_t u;
	json_t *words = json_array();
	pmon_event_get(e->pmu, e->event, &ei);
	if (pmon_encoding_unit(e, &u))
		u.unit = "", u.bytes = 0;
	for (int w = 0; w < PMON_FILTER_WORDS; w++)
		if (e->filt_used & (1u << w))
			json_array_append_new(words, json_pack("{s:i, s:o}", "word", w, "value", hex(e->filt[w])));
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:s, s:f}", "event", e->name,
			 "box", pi->name, "event_code", hex(ei.code), "ctl", hex(e->ctl), "umask",
			 hex(e->fixed ? 0 : (e->ctl >> 8) & 0xff), "filter",
			 hex(word >= 0 ? e->filt[word] : 0), "filter_words", words, "counters",
			 counters_json(e->cntmask, e->fixed), "fixed_counter", e->fixed, "unit", u.unit,
			 "bytes_per_count", u.bytes);
}

static const char *error_name(int rc)
{
	switch (rc) {
	case PMON_ENOEVNT: return "PMON_ENOEVNT";
	case PMON_EUMASK: return "PMON_EUMASK";
	case PMON_EQUAL: return "PMON_EQUAL";
	case PMON_ERANGE: return "PMON_ERANGE";
	default: return "PMON_EINVAL";
	}
}

static int cmd_encode(int argc, char **argv, const struct opts *o)
{
	int bad = 0;
	char err[512];
	const char *hint = NULL;
	json_t *out = o->json ? json_array() : NULL;
	for (int i = 0; i < argc; i++) {
		static pmon_name_map_t map;
		pmon_encoding_t e[PMON_MAX_INSTANCES];
		int n = pmon_name_map(argv[i], &map, err, sizeof(err));
		if (n == PMON_OK)
			n = pmon_encode_all(argv[i], 0, 0, e, PMON_MAX_INSTANCES, err, sizeof(err));
		if (n < 0) {
			fprintf(stderr, "pmon: %s: %s\n", argv[i], err);
			if (o->json)
				json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "input", argv[i],
								     "error", err, "code", error_name(n)));
			bad = 1;
			continue;
		}
		json_t *encs = o->json ? json_array() : NULL, *names = o->json ? json_array() : NULL;
		if (!o->json)
			map_text(argv[i], &map);
		for (int k = 0; k < n; k++) {
			pmon_pmu_info_t pi;
			pmon_pmu_get(e[k].pmu, &pi);
			if (o->json) {
				json_array_append_new(encs, encode_json(&e[k], &pi));
				json_array_append_new(names, json_string(map.pmon[k]));
			} else {
				encode_text(&e[k], &pi);
			}
		}
		if (!o->json) {
			hint = hint ? hint : argv[i];
			continue;
		}
		/* the first box's encoding at the top level, every box's in
		 * "encodings" (one for a name of one box) */
		pmon_pmu_info_t pi0;
		pmon_pmu_get(e[0].pmu, &pi0);
		json_t *item = json_pack("{s:s, s:s, s:o, s:b}", "input", argv[i], "form",
					 form_names[map.form], "pmon_names", names, "summed", n > 1);
		json_object_update(item, json_array_get(encs, 0));
		json_object_set_new(item, "encodings", encs);
		if (map.perf_scale > 0) {
			json_object_set_new(item, "perf_scale", json_real(map.perf_scale));
			json_object_set_new(item, "perf_unit", json_string(map.perf_unit));
		}
		if (map.note[0])
			json_object_set_new(item, "note", json_string(map.note));
		char papi[PMON_MAX_NAME + 8];
		snprintf(papi, sizeof(papi), "pmon:::%s", strncmp(argv[i], "pmon:::", 7) ? argv[i] : argv[i] + 7);
		json_object_set_new(item, "papi_name", json_string(papi));
		json_array_append_new(out, item);
	}
	if (hint)
		papi_hint(hint);
	if (o->json && emit_json(json_pack("{s:s, s:o}", "version", PMON_VERSION_STRING, "events", out)))
		return 1;
	return bad;
}

/* -------------------------------------------------------------------- info */

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

static int cmd_info(int argc, char **argv, const struct opts *o)
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

static int cmd_reset(int argc, char **argv, const struct opts *o)
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

/* -------------------------------------------------------------------- main */

static const struct command commands[] = {
	{ "list", "[--json] [--metrics] [PATTERN]", "events, umasks and modifiers per PMU; "
	  "--metrics: the derived metrics", 1, 0, 0, 1, "one PATTERN at most", cmd_list, NULL },
	{ "stat", "[options] [--] COMMAND [ARGS]", "run COMMAND and count uncore metrics (-M) and "
	  "events (-e) meanwhile; pmon stat --help", 0, 0, 1, -1, "a COMMAND", NULL, NULL },
	{ "encode", "[--json] EVENT...", "control and filter values, counters of each event", 1, 0,
	  1, -1, "at least one EVENT", cmd_encode, NULL },
	{ "info", "[--json]", "backend, CPU, sockets, boxes with their MSRs / PCI addresses", 1, 0,
	  0, 0, "no operand", cmd_info, NULL },
	{ "reset", "[--socket N] [--all] [--force]", "put back the registers a crashed count left "
	  "programmed (from its journal); refused while a process counts there", 0, 1,
	  0, 0, "no operand (--socket N chooses one socket)", cmd_reset,
	  "reset restores from the journals in the run directory ($PMON_RUN_DIR, default\n"
	  "  /run/pmon; one file per socket, socketN.journal, written before pmon changes a\n"
	  "  register).  Every line is checked first (its sum, box, CPU, register in the PMON\n"
	  "  set, writable bits): a bad line is named, skipped and removed.  A register that\n"
	  "  holds what pmon wrote gets its original value back; one that holds something else\n"
	  "  is another agent's and is left (--force writes it).  Without a journal nothing is\n"
	  "  written.  --all also sets the PMON controls, fixed controls, filters and box\n"
	  "  controls of every uncore box the journal does not name to their power-on value 0,\n"
	  "  but leaves a box with an enabled control (another agent counting; --force clears\n"
	  "  it too); the core PMU is never cleared so.  Refused, writing nothing, while a\n"
	  "  process counts on the socket.  Exit status 1 when a register stayed changed, a\n"
	  "  journal line was skipped, or reset was refused." },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pmon [--help | --version]\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "       pmon %s %s\n", commands[i].name, commands[i].synopsis);
	fprintf(f, "\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\noptions (after the command, before or after its operands; -- ends them):\n"
		   "  -j, --json      write one JSON document instead of the text (list, encode, info)\n"
		   "  -s, --socket N  only socket N (reset)\n"
		   "  -m, --metrics   list the derived metrics: formula, unit, guide line (list)\n"
		   "      --all       also clear the PMON registers pmon has no record of (reset)\n"
		   "      --force     with reset: write registers another agent holds too\n"
		   "  -h, --help      this text; pmon COMMAND --help describes one command\n"
		   "  -V, --version   the version (before any command)\n"
		   "\nPATTERN is a shell glob matched against PMU::EVENT (case-insensitive);\n"
		   "a plain word matches any name containing it.  man pmon has the rest.\n");
}

static void command_usage(FILE *f, const struct command *c)
{
	fprintf(f, "usage: pmon %s %s\n  %s\n", c->name, c->synopsis, c->summary);
	if (c->detail)
		fprintf(f, "\n  %s\n", c->detail);
}

/* A usage error of command c: one line saying what is wrong, then the
 * command's usage, on stderr; returns the exit status 2. */
static int usage_error(const struct command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(const struct command *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "pmon %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	command_usage(stderr, c);
	return 2;
}

/* The commands that take an option, as "list, encode and info". */
static void takers(int socket, char *buf, size_t len)
{
	size_t n = 0, k = 0, total = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		total += socket ? commands[i].takes_socket : commands[i].takes_json;
	buf[0] = 0;
	for (size_t i = 0; i < NCOMMANDS && n < len; i++) {
		if (!(socket ? commands[i].takes_socket : commands[i].takes_json))
			continue;
		k++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k == 1 ? "" : k == total ? " and " : ", ",
				      commands[i].name);
	}
}

/*
 * Parse a subcommand's options (argv[0] is its name) and run it.  Options
 * and operands come in any order (GNU style; "-" makes getopt_long hand back
 * each operand in place, whatever POSIXLY_CORRECT says); "--" ends the
 * options.  Every usage error says what is wrong in one line.
 */
static int run_command(const struct command *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "socket", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'A' },
		{ "force", no_argument, NULL, 'F' },
		{ "metrics", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0, -1, 0, 0 };
	char *end, prog[64], who[64];
	int ch, nops = 0, rc;
	char **ops = calloc((size_t)argc + 1, sizeof(*ops));
	if (!ops) {
		fprintf(stderr, "pmon: out of memory\n");
		return 1;
	}
	snprintf(prog, sizeof(prog), "pmon %s", c->name);
	argv[0] = prog;                   /* getopt's messages name "pmon list" */
	optind = 0;                       /* a fresh scan of the command's own argv */
	while ((ch = getopt_long(argc, argv, "-jhs:m", longopts, NULL)) != -1) {
		switch (ch) {
		case 1:                   /* an operand, in its place */
			ops[nops++] = optarg;
			break;
		case 's': {
			long v;
			if (!c->takes_socket) {
				takers(1, who, sizeof(who));
				rc = usage_error(c, "--socket is an option of %s only", who);
				goto out;
			}
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (*end || end == optarg || errno || v < 0 || v > INT_MAX) {
				rc = usage_error(c, "--socket '%s' is not a socket number (0, 1, ...)", optarg);
				goto out;
			}
			o.socket = (int)v;
			break;
		}
		case 'A':
		case 'F':
			if (strcmp(c->name, "reset")) {
				rc = usage_error(c, "--%s is an option of reset only", ch == 'A' ? "all" : "force");
				goto out;
			}
			o.reset |= ch == 'A' ? PMON_RESET_ALL : PMON_RESET_FORCE;
			break;
		case 'j':
			if (!c->takes_json) {
				takers(0, who, sizeof(who));
				rc = usage_error(c, "--json is an option of %s only", who);
				goto out;
			}
			o.json = 1;
			break;
		case 'm':
			if (c->run != cmd_list) {
				rc = usage_error(c, "--metrics is an option of list only");
				goto out;
			}
			o.metrics = 1;
			break;
		case 'h':
			command_usage(stdout, c);
			rc = 0;
			goto out;
		default:                  /* getopt_long said which option and why */
			command_usage(stderr, c);
			rc = 2;
			goto out;
		}
	}
	while (optind < argc)             /* after "--" */
		ops[nops++] = argv[optind++];
	if (nops < c->min_operands)
		rc = usage_error(c, "give %s", c->operands);
	else if (c->max_operands >= 0 && nops > c->max_operands)
		rc = usage_error(c, "unexpected operand '%s': %s takes %s", ops[c->max_operands],
				 c->name, c->operands);
	else
		rc = c->run(nops, ops, &o);
out:
	free(ops);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	argv[0] = "pmon";                 /* getopt's messages start "pmon:" like the others */
	while ((ch = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("pmon %s\n", PMON_VERSION_STRING);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "pmon: no command given\n");
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return 0;
	}
	const struct command *c = find_command(argv[optind]);
	if (!c) {
		fprintf(stderr, "pmon: unknown command '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!c->run)                      /* stat: options of its own */
		return stat_main(argc - optind, argv + optind);
	return run_command(c, argc - optind, argv + optind);
}
