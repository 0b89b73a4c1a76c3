# Replace the time-dependent numbers of perf stat output with placeholders,
# keeping the layout: elapsed/user/sys seconds, CPUs utilized, -I stamps,
# the -r elapsed noise.
s/^ *[0-9.]+( \+- [0-9.]+)? seconds/T seconds/
s/seconds time elapsed  \( \+- *[0-9.]+% \)/seconds time elapsed  ( +- P% )/
s/^ *[0-9]+\.[0-9]{9}([ ,;])/I\1/
s/^\{"interval" : [0-9.]+,/{"interval" : I,/
s/# +[0-9.]+ CPUs utilized/# C CPUs utilized/
s/[0-9.]+([,;:]CPUs utilized)/C\1/
s/"metric-value" : [0-9.]+, "metric-unit" : "CPUs utilized"/"metric-value" : C, "metric-unit" : "CPUs utilized"/
s/^# started on .*/# started on D/
# the padding after a time-dependent metric depends on its width
s/(CPUs utilized) +/\1 /
