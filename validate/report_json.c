/*
 * report_json.c - the JSON report, written with jansson.
 */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "report.h"
#include "report_record.h"

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The raw count of every event behind a check, in the order of its events
 * (an event programmed twice, e.g. numerator and denominator, appears once
 * a position: an array of {"event", "count"}). */
static json_t *counts_json(const struct vcheck *k)
{
	json_t *a = json_array();
	const char *p = k->events;
	for (int i = 0; p && *p && i < k->ncounts; i++) {
		size_t n = strcspn(p, ";");
		json_t *o = json_object();
		json_object_set_new(o, "event", json_stringn(p, n));
		json_object_set_new(o, "count", json_integer((json_int_t)k->counts[i]));
		json_array_append_new(a, o);
		p += n + (p[n] == ';');
	}
	return a;
}

int report_json(const char *path, const struct vctx *c, double seconds, char *why, size_t len)
{
	json_t *root = json_object(), *machine = json_object(), *checks = json_array(),
	       *skips = json_array();
	size_t failed = vchecks_failed(&c->checks), known = vchecks_known(&c->checks);

	json_object_set_new(root, "tool", json_string("pmon validate"));
	json_object_set_new(root, "run", record_run(c));
	json_object_set_new(machine, "backend", json_string(pmon_machine_backend(c->m)));
	json_object_set_new(machine, "cpu", json_string(pmon_machine_cpu_name(c->m)));
	json_object_set_new(machine, "shape", record_shape(c));
	json_object_set_new(machine, "sockets", json_integer(c->g.sockets));
	json_object_set_new(machine, "cores", json_integer(c->g.cores));
	json_object_set_new(machine, "channels", json_integer(c->g.channels));
	json_object_set_new(machine, "llc_bytes", json_integer((json_int_t)c->g.llc_bytes));
	json_object_set_new(machine, "l2_bytes", json_integer((json_int_t)c->g.l2_bytes));
	json_object_set_new(machine, "l1_bytes", json_integer((json_int_t)c->g.l1_bytes));
	json_object_set_new(root, "machine", machine);
	json_object_set_new(root, "hardware", vhwinfo_json(&c->hwinfo, &c->pf, &c->g));
	json_object_set_new(root, "threads", json_integer(c->nthreads));
	json_object_set_new(root, "seconds", json_real(seconds));
	if (c->o.brk_field) {
		char b[256];
		snprintf(b, sizeof(b), "%s:%s", vbfield_name[c->o.brk_field], c->o.brk_pat);
		json_object_set_new(root, "break", json_string(b));
	} else {
		json_object_set_new(root, "break", json_string(vbreak_name[c->o.brk]));
	}
	json_object_set_new(root, "model_references", json_integer((json_int_t)c->refs_fed));
	for (size_t i = 0; i < c->checks.n; i++) {
		const struct vcheck *k = &c->checks.v[i];
		json_t *o = json_object();
		char tol[32];
		vcheck_tol_text(k, tol, sizeof(tol));
		json_object_set_new(o, "kernel", json_string(k->kernel));
		json_object_set_new(o, "event", json_string(k->event));
		json_object_set_new(o, "unit", json_string(k->unit));
		json_object_set_new(o, "expected", json_real(k->expected));
		json_object_set_new(o, "measured", num_or_null(k->measured));
		json_object_set_new(o, "ratio", num_or_null(vcheck_ratio(k)));
		json_object_set_new(o, "tolerance", json_string(tol));
		json_object_set_new(o, "tolerance_kind",
				    json_string(k->tol_kind == VTOL_ABS ? "absolute" : "ratio"));
		json_object_set_new(o, "low", num_or_null(k->tol_kind == VTOL_ABS ? 0 : k->lo));
		json_object_set_new(o, "high", num_or_null(k->hi));
		json_object_set_new(o, "why", json_string(k->why));
		json_object_set_new(o, "events", k->events ? json_string(k->events) : json_null());
		json_object_set_new(o, "counts", counts_json(k));
		json_object_set_new(o, "spread", json_real(k->spread));
		if (k->nruns > 1) {
			json_t *runs = json_array();
			for (int r = 0; r < k->nruns; r++)
				json_array_append_new(runs, num_or_null(k->runs[r].measured));
			json_object_set_new(o, "runs", runs);
		}
		/* The idle baseline (vbase.h): null when none was taken for
		 * its events (core events, clocks, or nothing counted idle). */
		json_object_set_new(o, "background", k->bg_taken ? num_or_null(k->background) : json_null());
		json_object_set_new(o, "background_spread",
				    k->bg_taken ? num_or_null(k->bg_spread) : json_null());
		json_object_set_new(o, "broken", json_boolean(k->broken));
		json_object_set_new(o, "refused", k->refused ? json_string(k->refused) : json_null());
		json_object_set_new(o, "result", json_string(vcheck_result(k)));
		json_object_set_new(o, "known", k->known ? json_string(k->known) : json_null());
		json_array_append_new(checks, o);
	}
	for (int i = 0; i < c->nskips; i++)
		json_array_append_new(skips, json_string(c->skips[i].what));
	json_t *notes = json_array();
	for (int i = 0; i < c->nnotes; i++)
		json_array_append_new(notes, json_string(c->notes[i]));
	json_object_set_new(root, "notes", notes);
	json_t *boxes = json_array();
	const char *const *types;
	int nt = report_box_types(c, &types);
	for (int t = 0; t < nt; t++) {
		size_t n, pass, kn;
		const char *why = report_box_unvalidated(types[t]);
		json_t *b = json_object();
		report_box_count(c, types[t], &n, &pass, &kn);
		json_object_set_new(b, "box", json_string(types[t]));
		json_object_set_new(b, "checks", json_integer((json_int_t)n));
		json_object_set_new(b, "passed", json_integer((json_int_t)pass));
		json_object_set_new(b, "failed", json_integer((json_int_t)(n - pass - kn)));
		json_object_set_new(b, "known", json_integer((json_int_t)kn));
		json_object_set_new(b, "not_validated", n ? json_null() :
				    json_string(why ? why : "no check of this run counts its events"));
		json_array_append_new(boxes, b);
	}
	json_object_set_new(root, "boxes", boxes);
	json_t *base = json_object();
	json_object_set_new(base, "idle_ms", json_real(c->o.idle_ms));
	json_object_set_new(base, "windows", json_integer(c->idle_windows));
	json_object_set_new(base, "seconds", json_real(c->idle_s));
	json_object_set_new(base, "subtracted", json_boolean(c->o.brk != VB_BASELINE && c->o.idle_ms > 0));
	json_object_set_new(root, "baseline", base);
	json_object_set_new(root, "repeat", json_integer(c->o.repeat));
	json_object_set_new(root, "checks", checks);
	json_object_set_new(root, "skipped", skips);
	json_object_set_new(root, "skipped_checks", json_integer(c->nskipped));
	json_object_set_new(root, "planned_checks", json_integer((json_int_t)c->plan.n));
	json_object_set_new(root, "planned_skipped", json_integer(c->plan_skipped));
	json_object_set_new(root, "passed", json_integer((json_int_t)(c->checks.n - failed - known)));
	json_object_set_new(root, "failed", json_integer((json_int_t)failed));
	json_object_set_new(root, "known", json_integer((json_int_t)known));
	int rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (rc != 0) {
		snprintf(why, len, "cannot write %s", path);
		return -1;
	}
	return 0;
}
