#!/usr/bin/perl
# svgvals.pl bars|points FILE.svg: the values a probecost SVG shows, read back from its drawing
# through the axes its root element declares (data-pcost-x/-y, or per panel data-pcost-panel-N,
# data-pcost-x-N, data-pcost-y-N: "PX0 PX1 V0 V1 lin|log UNIT").  bars: one value a line (the
# end of each bar away from 0); points: "X Y" a line.  For the CLI tests.
use strict;
use warnings;

my ($what, $file) = @ARGV;
open(my $fh, '<', $file) or die "svgvals: $file: $!\n";
my $svg = do { local $/; <$fh> };
my ($root) = $svg =~ /(<svg [^>]*>)/ or die "svgvals: no <svg> in $file\n";

sub axis { my ($name) = @_; return $root =~ /\s\Q$name\E="([^"]+)"/ ? [split ' ', $1] : undef; }

sub value {
	my ($a, $px) = @_;
	my ($p0, $p1, $v0, $v1, $scale, $unit) = @$a;
	my $f = ($px - $p0) / ($p1 - $p0);
	my $v = $scale eq 'log' ? 10**(log($v0) / log(10) + $f * (log($v1) - log($v0)) / log(10))
	                        : $v0 + $f * ($v1 - $v0);
	return $v * $unit;
}

# Panels: [left, top, right, bottom, xaxis, yaxis]; a chart without panels is one.
my @panels;
for (my $k = 1; $root =~ /data-pcost-panel-$k="([^"]+)"/; $k++) {
	push @panels, [split(' ', $1), axis("data-pcost-x-$k"), axis("data-pcost-y-$k")];
}
@panels = ([-1e9, -1e9, 1e9, 1e9, axis('data-pcost-x'), axis('data-pcost-y')]) unless @panels;

my $drawing = substr($svg, index($svg, 'id="surface'));
while ($drawing =~ /<path style="([^"]*)" d="([^"]*)"/g) {
	my ($style, $d) = ($1, $2);
	my @n = $d =~ /(-?[0-9.]+)/g;
	next if $style =~ /fill:none/ || $style =~ /fill:rgb\(100%,100%,100%\)/;
	next if $style =~ /fill-opacity:0\.[0-4]/;    # a band, not a mark
	my @x = @n[grep { $_ % 2 == 0 } 0 .. $#n];
	my @y = @n[grep { $_ % 2 == 1 } 0 .. $#n];
	my ($x0, $x1) = (sort { $a <=> $b } @x)[0, -1];
	my ($y0, $y1) = (sort { $a <=> $b } @y)[0, -1];
	my ($cx, $cy) = (($x0 + $x1) / 2, ($y0 + $y1) / 2);
	my ($p) = grep { $cx >= $_->[0] - 1 && $cx <= $_->[2] + 1 && $cy >= $_->[1] - 1 && $cy <= $_->[3] + 1 } @panels;
	next unless $p && $p->[5];
	my $ya = $p->[5];
	if ($what eq 'points' && $d =~ /C/ && $x1 - $x0 < 12 && $y1 - $y0 < 12 && $cy > $ya->[1]) {
		printf "%.9g %.9g\n", value($p->[4], $cx), value($ya, $cy);
	} elsif ($what eq 'bars' && $d !~ /C/ && @n == 10) {
		# The base is the pixel of 0 (linear) or the bottom (log).
		my $base = $ya->[4] eq 'log' ? $ya->[0] : $ya->[0] + (0 - $ya->[2]) / ($ya->[3] - $ya->[2]) * ($ya->[1] - $ya->[0]);
		next unless abs($y1 - $base) < 1e-3 || abs($y0 - $base) < 1e-3;
		printf "%.9g\n", value($ya, abs($y1 - $base) < 1e-3 ? $y0 : $y1);
	}
}
