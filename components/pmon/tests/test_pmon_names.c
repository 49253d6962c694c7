/* test_pmon_names.c - perf's and Intel's names through PAPI on the emulated
 * machine: a name of every iMC channel (perf's uncore_imc/cas_count_read/,
 * Intel's UNC_M_CAS_COUNT.RD) is one PAPI event whose count is the sum of
 * the four channels' own events and of the emulator's truth; a one-box
 * perf name counts what pmon's name counts; event info carries the unit of
 * every event that has one (and perf's scale); the offcore events show
 * their required cpu= row; and a name pmon refuses leaves no register
 * written. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"
#include "pmon/sim.h"

static int cid = -1;

static void summed(pmon_sim_t *sim)
{
	int es = PAPI_NULL;
	long long v[7];
	struct pmon_sim_truth t0[4], t1[4];
	static const char *const ev[] = {
		"pmon:::uncore_imc/cas_count_read/",
		"pmon:::UNC_M_CAS_COUNT.RD",
		"pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD",
		"pmon:::snbep_unc_imc1::UNC_M_CAS_COUNT:RD",
		"pmon:::snbep_unc_imc2::UNC_M_CAS_COUNT:RD",
		"pmon:::snbep_unc_imc3::UNC_M_CAS_COUNT:RD",
		"pmon:::uncore_imc_2/cas_count_read/",
	};
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK, "eventset");
	for (int i = 0; i < 7; i++)
		CHECK_EQ_INT(PAPI_add_named_event(es, ev[i]), PAPI_OK, ev[i]);
	for (int c = 0; c < 4; c++)
		pmon_sim_channel_truth(sim, 0, c, &t0[c]);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK, "start");
	/* 20000 lines from 1 MiB on: the interleave spreads them over the
	 * channels */
	pmon_sim_traffic(sim, 0, 1 << 20, PMON_SIM_LOAD, 20000);
	CHECK_EQ_INT(PAPI_stop(es, v), PAPI_OK, "stop");
	uint64_t truth = 0;
	for (int c = 0; c < 4; c++) {
		pmon_sim_channel_truth(sim, 0, c, &t1[c]);
		truth += t1[c].cas_rd - t0[c].cas_rd;
	}
	long long per = v[2] + v[3] + v[4] + v[5];
	CHECK_EQ_U64(v[0], per, "uncore_imc/cas_count_read/ = the four channels' counts added");
	CHECK_EQ_U64(v[1], per, "UNC_M_CAS_COUNT.RD = the four channels' counts added");
	CHECK_EQ_U64(v[0], truth, "the sum = the emulator's reads on socket 0");
	CHECK_EQ_U64(v[6], v[4], "uncore_imc_2/cas_count_read/ = snbep_unc_imc2's count");
	CHECK(truth >= 20000, "every line read from DRAM (%llu)", (unsigned long long)truth);
	int busy = 0;
	for (int c = 2; c < 6; c++)
		busy += v[c] > 0;
	CHECK(busy >= 2, "the reads spread over channels (%d busy)", busy);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void units_is(const char *name, const char *units)
{
	int code;
	PAPI_event_info_t info;
	CHECK_EQ_INT(PAPI_event_name_to_code(name, &code), PAPI_OK, name);
	CHECK_EQ_INT(PAPI_get_event_info(code, &info), PAPI_OK, name);
	CHECK(!strcmp(info.units, units), "%s: units '%s', want '%s'", name, info.units, units);
}

static void units(void)
{
	units_is("pmon:::uncore_imc_0/cas_count_read/", "64-byte lines; perf: x6.103515625e-05 MiB");
	units_is("pmon:::uncore_imc/cas_count_write/", "64-byte lines; perf: x6.103515625e-05 MiB");
	units_is("pmon:::UNC_M_CAS_COUNT.WR", "64-byte lines");
	units_is("pmon:::uncore_imc_0/event=0x04,umask=0x03/", "64-byte lines");
	units_is("pmon:::snbep_unc_qpi0::UNC_Q_RXL_FLITS_G1:DRS_DATA", "8-byte data flits");
	units_is("pmon:::uncore_qpi_1/drs_data/", "8-byte data flits");
	units_is("pmon:::snbep_unc_imc0::UNC_M_CLOCKTICKS", "DRAM clock cycles");
	units_is("pmon:::snbep_unc_ubo::UNC_U_CLOCKTICKS", "uncore clock cycles");
	units_is("pmon:::snbep_unc_pcu::UNC_P_CLOCKTICKS", "PCU clock cycles (800 MHz)");
	units_is("pmon:::snbep_unc_imc0::UNC_M_ACT_COUNT", "");
}

/* papi_native_avail's rows of an offcore event: a cpu=N row, required. */
static void cpu_row(void)
{
	int code, k, found = 0;
	PAPI_event_info_t info;
	CHECK_EQ_INT(PAPI_event_name_to_code("pmon:::snb_ep::OFFCORE_RESPONSE_0", &code), PAPI_OK,
		     "offcore base event");
	for (k = code; PAPI_enum_cmp_event(&k, PAPI_NTV_ENUM_UMASKS, cid) == PAPI_OK;) {
		char name[PAPI_MAX_STR_LEN];
		PAPI_event_code_to_name(k, name);
		PAPI_get_event_info(k, &info);
		if (!strcmp(name, "pmon:::snb_ep::OFFCORE_RESPONSE_0:cpu=0")) {
			found = 1;
			CHECK(!strcmp(info.symbol, "pmon:::OFFCORE_RESPONSE_0:cpu=0"), "row symbol %s",
			      info.symbol);
			CHECK(strstr(info.long_descr, "required") && strstr(info.long_descr, "0-31"),
			      "the row says it is required and the CPUs: %s", info.long_descr);
		}
		CHECK(!strstr(name, ":socket="), "no socket row for a per-CPU event: %s", name);
	}
	CHECK(found, "OFFCORE_RESPONSE_0 shows a cpu=0 row");
}

static void refusals(pmon_sim_t *sim)
{
	int code;
	size_t w0 = pmon_sim_log_writes(sim);
	static const char *const bad[] = {
		"pmon:::uncore_imc_9/cas_count_read/",
		"pmon:::uncore_imc/cas_count_reed/",
		"pmon:::uncore_qpi_0/txl_flits_active/",
		"pmon:::UNC_M_CAS_COUNT.NOPE",
		"pmon:::UNC_Z_NOTHING.RD",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(PAPI_event_name_to_code(bad[i], &code) != PAPI_OK, "%s refused", bad[i]);
	CHECK_EQ_U64(pmon_sim_log_writes(sim), w0, "no register written by refused names");
}

int main(void)
{
	setenv("PMON_BACKEND", "sim", 1);
	setenv("PMON_QUIET", "1", 1);
	setenv("PMON_SIM", "clock=manual", 1);
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	cid = PAPI_get_component_index("pmon");
	CHECK(cid >= 0, "pmon component compiled in (%d)", cid);
	pmon_sim_t *sim = pmon_sim_current();
	CHECK(sim != NULL, "the test sees the component's emulated machine");
	if (cid < 0 || !sim)
		return check_done("test_pmon_names");
	summed(sim);
	units();
	cpu_row();
	refusals(sim);
	PAPI_shutdown();
	return check_done("test_pmon_names");
}
