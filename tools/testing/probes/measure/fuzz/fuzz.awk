# SPDX-License-Identifier: GPL-2.0
# Make n fuzz inputs from the corpus (one "FILE DEFINITION" a line, FILE
# being k, u or d): each a corpus line with up to four random mutations,
# or one time in ten a random string.
function rnd(k) { return int(rand() * k) }
function pick(s) { return substr(s, rnd(length(s)) + 1, 1) }
function mutate(s,    op, i, j, w, nw, words) {
	op = rnd(7)
	i = rnd(length(s) + 1)
	if (op == 0)		# drop a character
		return substr(s, 1, i - 1) substr(s, i + 1)
	if (op == 1)		# insert one
		return substr(s, 1, i) pick(chars) substr(s, i + 1)
	if (op == 2) {		# repeat a piece
		j = rnd(12) + 1
		return substr(s, 1, i) substr(s, i + 1, j) substr(s, i + 1)
	}
	if (op == 3)		# cut the end off
		return substr(s, 1, i)
	if (op == 4) {		# a word of another line
		nw = split(corpus[rnd(nc) + 1], words, " ")
		w = words[rnd(nw) + 1]
		return substr(s, 1, i) " " w substr(s, i + 1)
	}
	if (op == 5)		# a number where it hurts
		return substr(s, 1, i) pick("0123456789") pick("0x-+f") substr(s, i + 1)
	return substr(s, 1, i) pick("()[]{}") substr(s, i + 1)
}
/^#/ || NF < 2 { next }
{ corpus[++nc] = $0 }
END {
	srand(seed)
	chars = "%$@+-()[]:=/\\\"'0123456789abcdefxsuprkb_.>*, "
	for (k = 0; k < n; k++) {
		if (rnd(10) == 0) {
			s = substr("kud", rnd(3) + 1, 1)
			len = rnd(40)
			for (i = 0; i < len; i++)
				s = s pick(chars)
			print s
			continue
		}
		line = corpus[rnd(nc) + 1]
		f = substr(line, 1, 1)
		s = substr(line, 3)
		m = rnd(5)
		for (i = 0; i < m; i++)
			s = mutate(s)
		print f s
	}
}
