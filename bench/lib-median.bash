# bench/lib-median: sourced by benches that judge a median over rounds.
# "median lo hi" of the numbers on stdin: the 95% interval of the median is
# [x(k), x(n+1-k)], k the largest rank with P(Binomial(n, 1/2) < k) <= 0.025.
median_ci() {
	sort -g | awk '{ a[NR] = $1 }
	END {
		n = NR; med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		p = 0.5 ^ n; cum = p; k = 0
		for (j = 1; j <= n && cum <= 0.025; j++) { k = j; p = p * (n - j + 1) / j; cum += p }
		if (k < 1) print med, "nan", "nan"; else print med, a[k], a[n + 1 - k]
	}'
}
