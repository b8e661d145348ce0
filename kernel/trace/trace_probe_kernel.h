/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading strings and memory from a probe handler: any address, in any
 * context, without faulting.  Include after trace_probe.h.
 *
 * A string is stored in two steps: its length is measured while the
 * record is sized, then it is copied into the record's dynamic area.
 * The destination's u32 data location says, on entry, how much room is
 * left and where; on return it says what was stored.
 */
#ifndef _TRACE_PROBE_KERNEL_H
#define _TRACE_PROBE_KERNEL_H

#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/wordpart.h>
#include <asm/word-at-a-time.h>

/*
 * Where user and kernel addresses cannot overlap, a "kernel" address below
 * the top of user space can only be a user pointer written without the
 * 'u' of "+u0(...)"/ustring, as definitions older than that syntax were:
 * it is read as user memory rather than stored as a fault, which on a
 * kernel with PAN or SMAP it would always be.  Kprobe events have always
 * read it so, and definitions in the field rely on it (the "+0(%x1):string"
 * of a system call's path argument).  The top is the largest task's
 * (TASK_SIZE_MAX), not the current task's (TASK_SIZE, which a hit would
 * read from the task's flags): an address between the two is not the
 * kernel's, and read as the task's it faults, as it would read as the
 * kernel's, unless the task mapped memory there (x86's 32-bit tasks can,
 * through 64-bit system calls), which is then what a user pointer reads.
 */
static nokprobe_inline bool fetch_kernel_addr_is_user(unsigned long addr)
{
	return IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
	       addr < TASK_SIZE_MAX;
}

/* Length of a user string with its NUL, or a negative errno. */
static nokprobe_inline int fetch_store_strlen_user(unsigned long addr)
{
	return strnlen_user_nofault((const void __user *)addr, MAX_STRING_SIZE);
}

/* The bytes of @w from its @skip'th in memory on, as a word's first. */
static nokprobe_inline unsigned long fetch_word_from(unsigned long w,
						     unsigned int skip)
{
#ifdef __BIG_ENDIAN
	return w << (skip * BITS_PER_BYTE);
#else
	return w >> (skip * BITS_PER_BYTE);
#endif
}

/*
 * Copy (or with a NULL @dst, measure) a kernel string of at most @max
 * bytes, an aligned word at a time. An aligned word never straddles two
 * pages, so a string that ends just before an unmapped page is read whole,
 * and a short string costs a load or two where a copy of a fixed chunk and
 * a scan of it cost the same for any length. The bytes that share a word
 * with the string's first and last are read too: they are in the same
 * page, and never stored, but where @dst has @max + sizeof(long) - 1 bytes
 * (@room): each word is then stored whole, what follows the string's
 * bytes in it left as garbage past the NUL, rather than its bytes copied
 * by a call to memcpy(). Return the length with the NUL (@max, NUL put in,
 * if it is cut), or -EFAULT.
 */
static nokprobe_inline int __fetch_kernel_string(char *dst, unsigned long addr,
						 int max, bool room)
{
	const struct word_at_a_time zero = WORD_AT_A_TIME_CONSTANTS;
	unsigned int skip = addr & (sizeof(long) - 1);
	const unsigned long *word = (const unsigned long *)(addr - skip);
	unsigned long w, bits;
	int len = 0, n;
	bool last;

	/*
	 * The first word is checked here, before anything of the loop's is
	 * live across the call, and each page's first word in the loop.
	 */
	if (!copy_from_kernel_nofault_allowed(word, sizeof(long)))
		return -EFAULT;
	pagefault_disable();
	for (;;) {
		__get_kernel_nofault(&w, word, unsigned long, fault);
		/* The bytes before the string's first are no NUL of its. */
		w |= aligned_byte_mask(skip);
		last = has_zero(w, &bits, &zero);
		if (last) {
			bits = prep_zero_mask(w, bits, &zero);
			n = find_zero(create_zero_mask(bits)) + 1 - skip;
		} else {
			n = sizeof(long) - skip;
		}
		if (n >= max - len) {
			n = max - len;
			last = true;
		}
		if (dst && (room || n == sizeof(long)))
			put_unaligned(fetch_word_from(w, skip),
				      (unsigned long *)(dst + len));
		else if (dst)
			memcpy(dst + len, (const char *)&w + skip, n);
		len += n;
		if (last)
			break;
		skip = 0;
		word++;
		if (!offset_in_page(word) &&
		    !copy_from_kernel_nofault_allowed(word, sizeof(long)))
			goto fault;
	}
	pagefault_enable();
	/* Cut at @max, or the NUL read; either way, a NUL ends it. */
	if (dst)
		dst[len - 1] = '\0';
	return len;
fault:
	pagefault_enable();
	return -EFAULT;
}

static nokprobe_inline int fetch_kernel_string(char *dst, unsigned long addr,
					       int max)
{
	return __fetch_kernel_string(dst, addr, max, false);
}

/* Length of a kernel string with its NUL, or a negative errno. */
static nokprobe_inline int fetch_store_strlen(unsigned long addr)
{
	if (fetch_kernel_addr_is_user(addr))
		return fetch_store_strlen_user(addr);
	return fetch_kernel_string(NULL, addr, MAX_STRING_SIZE);
}

/* Point *@dest at @len bytes stored at @data, or at nothing after a fault. */
static nokprobe_inline void fetch_set_loc(int len, void *dest, void *data,
					  void *base)
{
	*(u32 *)dest = make_data_loc(len < 0 ? 0 : len, data - base);
}

static nokprobe_inline int fetch_store_string_common(unsigned long addr,
						     void *dest, void *base,
						     bool user)
{
	u32 maxlen = get_loc_len(*(u32 *)dest);
	char *data = get_loc_data(dest, base);
	long len;

	if (unlikely(!maxlen))
		return -ENOMEM;
	if (user)
		len = strncpy_from_user_nofault(data, (const void __user *)addr,
						maxlen);
	else
		len = fetch_kernel_string(data, addr, maxlen);
	/* A string that grew since it was measured is cut to fit, with a NUL. */
	fetch_set_loc(len, dest, data, base);
	return len;
}

/**
 * fetch_store_string - copy a kernel string into a record
 * @addr: the string
 * @dest: its data location in the record: room and place on entry
 * @base: the start of the record
 *
 * Return: bytes stored with the NUL, or a negative errno (nothing stored).
 */
static nokprobe_inline int fetch_store_string(unsigned long addr, void *dest,
					      void *base)
{
	return fetch_store_string_common(addr, dest, base,
					 fetch_kernel_addr_is_user(addr));
}

/**
 * fetch_store_string_user - copy a user string into a record
 * @addr: the string
 * @dest: its data location in the record: room and place on entry
 * @base: the start of the record
 *
 * Return: bytes stored with the NUL, or a negative errno (nothing stored).
 */
static nokprobe_inline int fetch_store_string_user(unsigned long addr,
						   void *dest, void *base)
{
	return fetch_store_string_common(addr, dest, base, true);
}

/*
 * The same in the probed task's own context (uprobes), where a user page
 * not yet touched is faulted in rather than read as a fault.
 */
static inline int fetch_strlen_user_faulting(unsigned long addr)
{
	long len = strnlen_user((const char __user *)addr, MAX_STRING_SIZE);

	return len > 0 ? len : -EFAULT;
}

static inline int fetch_string_user_faulting(unsigned long addr, void *dest,
					     void *base)
{
	u32 maxlen = get_loc_len(*(u32 *)dest);
	char *data = get_loc_data(dest, base);
	long len;

	if (unlikely(!maxlen))
		return -ENOMEM;
	/* The length without the NUL, or maxlen for a string cut short. */
	len = strncpy_from_user(data, (const char __user *)addr, maxlen);
	if (len == maxlen)
		data[maxlen - 1] = '\0';
	else if (len >= 0)
		len++;
	fetch_set_loc(len, dest, data, base);
	return len;
}

#endif /* _TRACE_PROBE_KERNEL_H */
