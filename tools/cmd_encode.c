/* cmd_encode.c - pmon encode: the control and filter values and the
 * counters of each event, or why it does not encode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

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
/* The box type of a pmon name "PMU::EVENT" ("" when unknown). */
static const char *box_of(const char *pmon_name)
{
	char pmu[64];
	pmon_pmu_info_t pi;
	snprintf(pmu, sizeof(pmu), "%.*s", (int)strcspn(pmon_name, ":"), pmon_name);
	return pmon_pmu_get(pmon_pmu_find(pmu), &pi) == PMON_OK ? pi.box_type : "";
}

static void map_text(const char *input, const pmon_name_map_t *map)
{
	if (map->form == PMON_FORM_PMON)
		return;
	/* an event of several generations' PMUs: a machine counts with its own */
	int gens = 0;
	for (int i = 1; i < map->ninstances; i++)
		gens |= strcmp(box_of(map->pmon[i]), box_of(map->pmon[0])) != 0;
	printf("%s (%s's name) = %s%s\n", input, form_names[map->form],
	       gens ? "on the machine's generation: " : map->ninstances > 1 ? "the sum of: " : "",
	       map->pmon[0]);
	for (int i = 1; i < map->ninstances; i++)
		printf("    %s %s\n", gens ? "or" : "+", map->pmon[i]);
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

int cmd_encode(int argc, char **argv, const struct opts *o)
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
