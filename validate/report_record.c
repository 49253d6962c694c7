/*
 * report_record.c - the run's record in report.json (report_record.h).
 */
#include <string.h>

#include "report_record.h"

json_t *record_run(const struct vctx *c)
{
	json_t *o = json_object(), *argv = json_array();
	for (int i = 0; i < c->argc; i++)
		json_array_append_new(argv, json_string(c->argv[i]));
	json_object_set_new(o, "pmon_version", json_string(PMON_VERSION_STRING));
	json_object_set_new(o, "date", json_string(c->date));
	json_object_set_new(o, "command_line", argv);
	json_object_set_new(o, "seed", json_integer((json_int_t)c->o.seed));
	json_object_set_new(o, "backend", json_string(pmon_machine_backend(c->m)));
	return o;
}

json_t *record_shape(const struct vctx *c)
{
	static const char *const sup[PMON_SIM_NSUPPLIERS] = { "l1", "l2", "llc", "dram", "rdram",
							     "rcache" };
	if (!c->sim)
		return json_null();
	const struct pmon_sim_shape *s = pmon_sim_shape(c->sim);
	json_t *o = json_object(), *lat = json_object(), *clk = json_object(), *ids = json_array();
	json_object_set_new(o, "spec", json_string(c->shape_spec ? c->shape_spec : ""));
	json_object_set_new(o, "spec_from", json_string(c->shape_src ? c->shape_src : "default"));
	json_object_set_new(o, "sockets", json_integer(s->sockets));
	json_object_set_new(o, "cores", json_integer(s->cores));
	json_object_set_new(o, "threads", json_integer(s->threads));
	json_object_set_new(o, "channels", json_integer(s->channels));
	json_object_set_new(o, "llc_bytes", json_integer((json_int_t)s->llc_bytes));
	json_object_set_new(o, "l2_bytes", json_integer((json_int_t)s->l2_bytes));
	json_object_set_new(o, "l1_bytes", json_integer((json_int_t)s->l1_bytes));
	json_object_set_new(o, "mem_bytes", json_integer((json_int_t)s->mem_bytes));
	json_object_set_new(o, "llc_ways", json_integer(s->llc_ways));
	json_object_set_new(o, "l2_ways", json_integer(s->l2_ways));
	json_object_set_new(o, "l1_ways", json_integer(s->l1_ways));
	json_object_set_new(o, "prefetch", json_integer(s->prefetch));
	json_object_set_new(o, "load_bps", json_integer((json_int_t)s->load_bps));
	json_object_set_new(o, "noise_bps", json_integer((json_int_t)s->noise_bps));
	json_object_set_new(o, "gen", json_string(s->gen == PMON_SIM_GEN_NHMEP ? "nhm-ep" :
						  s->gen == PMON_SIM_GEN_WSMEP ? "wsm-ep" : "snb-ep"));
	/* the streaming-store erratum: a key of nhm-ep and wsm-ep only */
	json_object_set_new(o, "nt_erratum", s->gen == PMON_SIM_GEN_SNBEP ? json_null()
						  : json_boolean(s->nt_erratum));
	json_object_set_new(o, "clock", json_string(s->clock == PMON_SIM_CLOCK_WALL ? "wall" :
						    s->clock == PMON_SIM_CLOCK_AUTO ? "auto" : "manual"));
	json_object_set_new(clk, "dclk_hz", json_integer((json_int_t)s->dclk_hz));
	json_object_set_new(clk, "uclk_hz", json_integer((json_int_t)s->uclk_hz));
	json_object_set_new(clk, "tsc_hz", json_integer((json_int_t)s->tsc_hz));
	json_object_set_new(clk, "qclk_hz", json_integer((json_int_t)s->qclk_hz));
	json_object_set_new(clk, "pclk_hz", json_integer((json_int_t)s->pclk_hz));
	json_object_set_new(o, "clocks", clk);
	for (int i = 0; i < PMON_SIM_NSUPPLIERS; i++)
		json_object_set_new(lat, sup[i], json_integer(s->lat_ns[i]));
	json_object_set_new(o, "latency_ns", lat);
	for (int i = 0; i < s->sockets && i < 8; i++)
		json_array_append_new(ids, json_integer(s->nodeids[i]));
	json_object_set_new(o, "nodeids", ids);
	return o;
}
