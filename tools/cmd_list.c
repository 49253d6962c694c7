/* cmd_list.c - pmon list: events, umasks and modifiers per PMU (--metrics:
 * stat_out.c lists the derived metrics). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "stat.h"

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

int cmd_list(int argc, char **argv, const struct opts *o)
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
