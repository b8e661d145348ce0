// SPDX-License-Identifier: GPL-2.0-only
/*
 * The detours of optimized kprobes: pages of slots in a B's reach of the
 * probes that jump to them, for the kernel's text and for modules'.
 */

#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/set_memory.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>

#include <asm/sections.h>

#include "opt.h"

/*
 * A detour must lie within a B's reach (+/-128 MB) of the probe that jumps
 * to it. The core keeps one cache of detour pages, whose slots it hands to
 * any probe, so each of its pages must be in reach of the whole of the
 * kernel's text. The module area is only sometimes: without KASLR, or with
 * it but RANDOMIZE_MODULE_REGION_FULL off, modules go first to a 128 MB
 * window in reach of all the kernel's text; with KASLR and that option on,
 * as defconfig has it (it is the default), the window is a random 2 GB
 * one, most of it out of reach. So a page from the module area is kept
 * when it is in reach of the whole of the kernel's text, and otherwise a
 * page is taken from the vmalloc space that is, around the kernel's image.
 * (The generic kprobes area may be anywhere in vmalloc space.) Probes on
 * modules take their detours from the caches below when the core's are not
 * in their reach.
 */
static bool in_reach_of_kernel_text(unsigned long page)
{
	return opt_b_reaches((unsigned long)_stext, page + PAGE_SIZE) &&
	       opt_b_reaches((unsigned long)_etext, page);
}

/* @page, if any, mapped read-only and executable, as module text is. */
static void *make_rox(void *page)
{
	if (page && set_memory_rox((unsigned long)page, 1)) {
		vfree(page);
		return NULL;
	}
	return page;
}

/*
 * A page of detours in [start, end), within the module area and the
 * vmalloc space above it, where the kernel's image and modules lie.
 */
static void *alloc_detour_page(unsigned long start, unsigned long end)
{
	start = max(MODULES_VADDR, PAGE_ALIGN(start));
	end = min(VMALLOC_END, end & PAGE_MASK);
	if (start >= end)
		return NULL;
	return make_rox(__vmalloc_node_range(PAGE_SIZE, PAGE_SIZE, start, end,
					     GFP_KERNEL | __GFP_NOWARN,
					     PAGE_KERNEL, VM_FLUSH_RESET_PERMS,
					     NUMA_NO_NODE,
					     __builtin_return_address(0)));
}

void *alloc_optinsn_page(void)
{
	void *page = execmem_alloc(EXECMEM_MODULE_TEXT, PAGE_SIZE);

	if (page && in_reach_of_kernel_text((unsigned long)page))
		return make_rox(page);
	execmem_free(page);
	return alloc_detour_page((unsigned long)_etext - SZ_128M,
				 (unsigned long)_stext + SZ_128M);
}

/*
 * Both kinds of page are vmalloc areas that reset their permissions when
 * freed: execmem_alloc() gives arm64's module text as __vmalloc_node_range()
 * with VM_FLUSH_RESET_PERMS, as alloc_detour_page() does.
 */
void free_optinsn_page(void *page)
{
	vfree(page);
}

/*
 * Detours for modules the core's pages are out of reach of. Any two
 * addresses in one 128 MB-aligned window of the address space are within
 * a B's reach of each other, so a probe takes its detour from the cache of
 * its own window, whose pages lie in that window: a 2 GB module area has
 * 16. A window and its cache are made when a probe in it is first
 * optimized, and kept, as the core keeps a cache's last page: 16 pages at
 * most. kallsyms lists their pages as kprobe_module_optinsn_page, among
 * the core's [__builtin__kprobes]; kernel_text_address(), which knows only
 * the core's caches, does not count them as text.
 */
struct detour_window {
	struct list_head list;
	unsigned long base;
	struct kprobe_insn_cache cache;
};

static LIST_HEAD(detour_windows);
/* Serialises making windows and taking slots from them. */
static DEFINE_MUTEX(detour_windows_lock);
/*
 * The window a slot is being taken from: a cache's alloc() has no argument,
 * and get_window_slot() sets this, holding the lock, before it asks.
 */
static unsigned long detour_window_base;

static void *alloc_window_page(void)
{
	lockdep_assert_held(&detour_windows_lock);
	return alloc_detour_page(detour_window_base,
				 detour_window_base + SZ_128M);
}

/*
 * The window at @base, if made; under RCU or detour_windows_lock. A window
 * is never removed, so what this returns stays valid after either.
 */
static struct detour_window *find_window(unsigned long base)
{
	struct detour_window *w;

	list_for_each_entry_rcu(w, &detour_windows, list,
				lockdep_is_held(&detour_windows_lock))
		if (w->base == base)
			return w;
	return NULL;
}

static kprobe_opcode_t *get_window_slot(unsigned long addr)
{
	unsigned long base = ALIGN_DOWN(addr, SZ_128M);
	kprobe_opcode_t *slot = NULL;
	struct detour_window *w;

	mutex_lock(&detour_windows_lock);
	w = find_window(base);
	if (!w) {
		w = kzalloc_obj(*w);
		if (!w)
			goto out;
		w->base = base;
		mutex_init(&w->cache.mutex);
		w->cache.alloc = alloc_window_page;
		w->cache.free = free_optinsn_page;
		w->cache.sym = "kprobe_module_optinsn_page";
		INIT_LIST_HEAD(&w->cache.pages);
		w->cache.insn_size = MAX_OPTINSN_SIZE;
		list_add_tail_rcu(&w->list, &detour_windows);
	}
	detour_window_base = base;
	slot = __get_insn_slot(&w->cache);
out:
	mutex_unlock(&detour_windows_lock);
	return slot;
}

/**
 * arch_kprobe_get_kallsym() - name the pages of the module windows' detours
 * @symnum: how many of kprobes' pages to pass over; counted down
 * @value: the page's address, when found
 * @type: its symbol type, when found
 * @sym: its name, when found
 *
 * Return: 0 when the @symnum'th page was found, -ERANGE past the last.
 */
int arch_kprobe_get_kallsym(unsigned int *symnum, unsigned long *value,
			    char *type, char *sym)
{
	struct detour_window *w;
	int ret = -ERANGE;

	rcu_read_lock();
	list_for_each_entry_rcu(w, &detour_windows, list) {
		ret = kprobe_cache_get_kallsym(&w->cache, symnum, value, type,
					       sym);
		if (!ret)
			break;
	}
	rcu_read_unlock();
	return ret;
}

/*
 * The cache a detour came from, found rather than kept: one more pointer
 * in every optimized_kprobe would take it out of kmalloc-128. A window's
 * pages lie in the window, and the core's are told apart first.
 */
static struct kprobe_insn_cache *detour_cache(kprobe_opcode_t *detour)
{
	struct detour_window *w;

	if (__is_insn_slot_addr(&kprobe_optinsn_slots, (unsigned long)detour))
		return &kprobe_optinsn_slots;
	rcu_read_lock();
	w = find_window(ALIGN_DOWN((unsigned long)detour, SZ_128M));
	rcu_read_unlock();
	return w ? &w->cache : &kprobe_optinsn_slots;
}

/**
 * get_detour_slot() - a detour's slot in a B's reach of a probe
 * @addr: the probe's address
 *
 * The core's cache, whose pages are in reach of the kernel's text and of
 * modules near it, gives the slot, or else the cache of @addr's window.
 *
 * Return: the slot, or NULL when none can be had.
 */
kprobe_opcode_t *get_detour_slot(unsigned long addr)
{
	kprobe_opcode_t *slot = __get_insn_slot(&kprobe_optinsn_slots);

	if (!slot || opt_b_reaches(addr, (unsigned long)slot))
		return slot;
	__free_insn_slot(&kprobe_optinsn_slots, slot, 0);
	return get_window_slot(addr);
}

/**
 * free_detour_slot() - give back a slot get_detour_slot() gave
 * @detour: the slot
 *
 * No CPU may be in it: the caller has seen to that, so it is not "dirty".
 */
void free_detour_slot(kprobe_opcode_t *detour)
{
	__free_insn_slot(detour_cache(detour), detour, 0);
}
