#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make coverage's report over the boots' lcov files:
#   report.sh INFO_DIR OUT_DIR
# Writes OUT_DIR/coverage.info (every boot's counts added up), the HTML
# report OUT_DIR/html/index.html (genhtml, lines and branches) and the
# text summary OUT_DIR/summary.txt, which it also prints: per file its
# lines and branches hit, then every line never run, in its function,
# with the reason tools/testing/coverage/reasons gives for it.
# Fails (exit 1, the reason on the last line) when a file of drivers/ or
# include/ runs less than 95% of its lines, when a line never run there
# has no reason, or when a reason matches no such line (the code moved
# or is now run: the entry must go). The simulator's files are counted
# and listed, not held to either.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"

[ $# -eq 2 ] || die "usage: report.sh INFO_DIR OUT_DIR"
infos=("$1"/*.info)
[ -f "${infos[0]}" ] || die "no .info file in $1 (no boot gave coverage data)"
mkdir -p "$2"
out=$(cd "$2" && pwd)
MIN=${UNCORE_COVERAGE_MIN:-95}

args=()
for f in "${infos[@]}"; do
	args+=(--add-tracefile "$f")
done
lcov --quiet --rc lcov_branch_coverage=1 "${args[@]}" \
	--output-file "$out/coverage.info" >"$out/lcov.log" 2>&1 ||
	{ cat "$out/lcov.log" >&2; die "lcov could not add up ${infos[*]}"; }
rm -rf "$out/html"
(cd "$REPO" && genhtml --quiet --branch-coverage --rc lcov_branch_coverage=1 \
	--title "uncore-pmu: make coverage" --output-directory "$out/html" \
	"$out/coverage.info") >"$out/genhtml.log" 2>&1 ||
	{ cat "$out/genhtml.log" >&2; die "genhtml failed"; }

cd "$REPO"
st=0
perl - "$out/coverage.info" "$HERE/reasons" "$MIN" "${#infos[@]}" \
	>"$out/summary.txt" <<'PERL' || st=$?
use strict;
use warnings;
my ($info, $reasons, $min, $boots) = @ARGV;
my (%lf, %lh, %brf, %brh, %fn, %da, @files);
my $sf;
open(my $in, '<', $info) or die "$info: $!\n";
while (<$in>) {
	chomp;
	if (/^SF:(.*)/) { $sf = $1; push @files, $sf unless exists $lf{$sf};
			  $lf{$sf} //= 0; $lh{$sf} //= 0; $brf{$sf} //= 0; $brh{$sf} //= 0; }
	elsif (/^FN:(\d+),(.*)/) { $fn{$sf}{$1} = $2; }
	elsif (/^DA:(\d+),(\d+)/) { $da{$sf}{$1} = $2; }
	elsif (/^BRDA:\d+,\d+,\d+,(\S+)/) { $brf{$sf}++; $brh{$sf}++ if $1 ne '-' && $1 > 0; }
}
close $in;
# lcov -a adds counts per line: recount from DA, not LF/LH
for my $f (@files) {
	$lf{$f} = scalar keys %{$da{$f}};
	$lh{$f} = grep { $da{$f}{$_} > 0 } keys %{$da{$f}};
}

# reasons: "FILE | FUNCTION | TEXT | REASON"; TEXT "*" is any line of FUNCTION
my @rs;
open(my $rf, '<', $reasons) or die "$reasons: $!\n";
while (<$rf>) {
	chomp;
	next if /^\s*(#|$)/;
	my @p = split / \| /, $_, 4;
	die "$reasons:$.: not FILE | FUNCTION | TEXT | REASON\n" unless @p == 4 && $p[3] ne '';
	push @rs, { file => $p[0], func => $p[1], text => $p[2], why => $p[3],
		    line => $., used => 0 };
}
close $rf;

sub held { return $_[0] =~ m{^(drivers|include)/}; }
my $bad = 0;
my @why;
printf "%-52s %17s %17s\n", "file (counts of $boots boots added up)", 'lines', 'branches';
my ($tlf, $tlh, $tbf, $tbh) = (0, 0, 0, 0);
for my $f (sort @files) {
	my $lp = $lf{$f} ? 100 * $lh{$f} / $lf{$f} : 100;
	my $bp = $brf{$f} ? 100 * $brh{$f} / $brf{$f} : 100;
	my $flag = '';
	if (held($f) && $lp < $min) { $flag = "  < $min%"; $bad++;
		push @why, "$f: $lh{$f} of $lf{$f} lines run, under $min%"; }
	printf "%-52s %5d/%-5d %5.1f%% %5d/%-5d %5.1f%%%s\n", $f, $lh{$f}, $lf{$f}, $lp,
		$brh{$f}, $brf{$f}, $bp, $flag;
	if (held($f)) { $tlf += $lf{$f}; $tlh += $lh{$f}; $tbf += $brf{$f}; $tbh += $brh{$f}; }
}
printf "%-52s %5d/%-5d %5.1f%% %5d/%-5d %5.1f%%\n", 'drivers/ and include/ in all',
	$tlh, $tlf, $tlf ? 100 * $tlh / $tlf : 100, $tbh, $tbf, $tbf ? 100 * $tbh / $tbf : 100;
print "\nLines never run, each with its function and why:\n";
for my $f (sort @files) {
	my @miss = sort { $a <=> $b } grep { $da{$f}{$_} == 0 } keys %{$da{$f}};
	next unless @miss;
	open(my $s, '<', $f) or die "$f: $!\n";
	my @src = <$s>;
	close $s;
	my @starts = sort { $a <=> $b } keys %{$fn{$f}};
	for my $l (@miss) {
		my $func = '?';
		for my $st (@starts) { last if $st > $l; $func = $fn{$f}{$st}; }
		my $text = $src[$l - 1] // '';
		$text =~ s/^\s+|\s+$//g;
		my $r;
		for my $e (@rs) {
			next unless $e->{file} eq $f && $e->{func} eq $func;
			next unless $e->{text} eq '*' || index($text, $e->{text}) >= 0;
			$r = $e; last;
		}
		print "$f:$l $func(): $text\n";
		if ($r) {
			$r->{used}++;
			print "    why: $r->{why}\n";
		} elsif (held($f)) {
			print "    why: NO REASON GIVEN\n";
			push @why, "$f:$l ($func) never runs, and reasons says not why";
			$bad++;
		} else {
			print "    (test code: no reason needed)\n";
		}
	}
}
for my $e (@rs) {
	next if $e->{used};
	push @why, "reasons:$e->{line}: matches no line never run" .
		   " ($e->{file} $e->{func}: $e->{text})";
	$bad++;
}
if ($bad) {
	print "\nFAILED:\n";
	print "  $_\n" for @why;
	exit 1;
}
print "\nEvery file of drivers/ and include/ runs at least $min% of its lines,",
	" and each line it never runs has its reason.\n";
PERL
cat "$out/summary.txt"
echo "report.sh: HTML report in $out/html/index.html" >&2
[ $st = 0 ] || die "coverage below the bar or unexplained (see FAILED above)"
