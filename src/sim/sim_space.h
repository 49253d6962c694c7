/*
 * sim_space.h - the emulated register spaces: MSRs (sim_msr.c dispatches to
 * the box files) and PCI configuration space (sim_pci.c, boxes in
 * sim_pcibox.c).
 */
#ifndef PMON_SIM_SPACE_H
#define PMON_SIM_SPACE_H

#include <stdint.h>

#include "access.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

struct pmon_sim;
struct sim_socket;
struct sim_box;
struct sim_ctr;

/* ---- MSR space (sim_msr.c dispatches to the box files) ---- */
int sim_msr_read(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t *val);
int sim_msr_write(struct pmon_sim *sim, int cpu, uint32_t msr, uint64_t val);
/* Per family: return 1 if msr belongs to it (then *rc is the result). */
int sim_ubox_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		 uint64_t *val, int *rc);
int sim_cbo_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc);
/* The PMON counter a read of (cpu, msr) reaches, NULL when it is not one
 * (a read's fast path: nothing to check, count or log but the access): a
 * CBo's, the UBox's (general or fixed), the PCU's, or a core PMU's
 * (IA32_PMCx, IA32_FIXED_CTRx, which count the offcore responses too);
 * per family, and all of them (sim_msr.c). */
const struct sim_ctr *sim_cbo_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_ubox_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_pcu_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_core_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
const struct sim_ctr *sim_msr_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
int sim_pcu_msr(struct pmon_sim *sim, struct sim_socket *s, uint32_t msr, int wr,
		uint64_t *val, int *rc);
int sim_core_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc);
void sim_core_init(struct pmon_sim *sim);
void sim_core_refresh(struct pmon_sim *sim, int cpu);

/* ---- PCI space (sim_pci.c, boxes in sim_pcibox.c) ---- */
int sim_pci_read(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t *val);
int sim_pci_write(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t val);
int sim_pci_find(struct pmon_sim *sim, uint16_t vendor, uint16_t device,
		 pmon_pci_addr_t *out, int max);
/* PMON registers of a PCI box (box ctl, ctls, counters, iMC fixed).  Return
 * 1 if off is one of them. */
int sim_pcibox_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_pcibox_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);
/* ndw dwords from off, all at or above the counters (0xA0): the PMON block. */
#define SIM_PCIBOX_BLOCK 0xA0u
/* Such a block of box b, worked out once (kept on the machine until it is
 * destroyed, one per box, offset, size and wanted dwords as access.h's
 * pmon_read_req has them; NULL when out of memory; under the lock), and
 * read: its wanted dwords into val. */
struct sim_window;
const struct sim_window *sim_pcibox_window(struct pmon_sim *sim, const struct sim_box *b,
					   uint32_t off, int ndw, uint64_t want);
void sim_window_read(const struct sim_window *w, uint32_t *val);
void sim_windows_free(struct pmon_sim *sim);
/* The PMON box whose PMON register block holds the ndw dwords from off of
 * function d (all at or above the counters, within the function's 4 KiB),
 * NULL when they are not such a block (sim_pcibox_window then serves it). */
const struct sim_box *sim_pci_pmon_block(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off,
					 int ndw);
/* Box-specific PCI registers (return 1 if off is one of them). */
int sim_ubox_pci_read(struct pmon_sim *sim, struct sim_socket *s, uint32_t off, uint32_t *val);
int sim_ha_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_ha_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);
int sim_qpi_mm_read(struct sim_box *b, uint32_t off, uint32_t *val);
int sim_qpi_mm_write(struct pmon_sim *sim, struct sim_box *b, uint32_t off, uint32_t val);

#pragma GCC visibility pop

#endif
