/*
 * The reference tool's seconds for ldiv_db's peers suite (bench/peers/suite.py): each workload of a
 * spec file run several times in this one JVM (the first runs warm it), each run's seconds printed, so
 * the suite takes the best of the warm ones. CPU seconds: the running thread's, from the first call to the
 * end of the run's last part (the check's class statistics included). Uses ARX's public API only. Compiled against the user's ARX by
 * `python -m bench.peers --build` (ARX_CLASSPATH).
 *
 *   java -cp "$(cat ~/.cache/ldiv_db/arx/classpath.txt):~/.cache/ldiv_db/arx/figures" ArxPeers SPEC
 *
 * SPEC: one workload a line, tab-separated:
 *   kind name csv hierarchy-prefix qi,qi,... sa model l c suppression-limit warm-up repeat
 * kind "optimal": Flash over the whole lattice, Loss metric gs = 0.5; prints the optimum's levels (in
 * the order of the QIs given), rows deleted, classes and Loss.
 * kind "check": the one node with every QI at level 0 (its minimum and maximum generalization), the
 * suppression limit 1, then the equivalence-class statistics of its output: the seconds of both
 * parts, the classes and the rows the model suppresses (the rows of the classes violating it).
 * model: distinct, entropy (Shannon, natural log) or recursive (c, l). Hierarchies:
 * hierarchy-prefix + qi + ".csv", ';'-separated. Prints one JSON object a line.
 */

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.DataHandle;
import org.deidentifier.arx.aggregates.StatisticsEquivalenceClasses;
import org.deidentifier.arx.criteria.DistinctLDiversity;
import org.deidentifier.arx.criteria.EntropyLDiversity;
import org.deidentifier.arx.criteria.PrivacyCriterion;
import org.deidentifier.arx.criteria.RecursiveCLDiversity;
import org.deidentifier.arx.metric.Metric;

public class ArxPeers {

    final String kind;
    final String name;
    final File csv;
    final String prefix;
    final String[] qis;
    final String sa;
    final String model;
    final int l;
    final double c;
    final double limit;
    final int warmup;
    final int repeat;

    ArxPeers(String line) {
        String[] f = line.split("\t");
        if (f.length != 12) {
            throw new IllegalArgumentException("a spec line has 12 tab-separated fields, not " + f.length + ": " + line);
        }
        kind = f[0];
        name = f[1];
        csv = new File(f[2]);
        prefix = f[3];
        qis = f[4].split(",");
        sa = f[5];
        model = f[6];
        l = Integer.parseInt(f[7]);
        c = Double.parseDouble(f[8]);
        limit = Double.parseDouble(f[9]);
        warmup = Integer.parseInt(f[10]);
        repeat = Integer.parseInt(f[11]);
    }

    Data load() throws IOException {
        Data data = Data.create(csv, StandardCharsets.UTF_8, ';');
        for (int i = 0; i < data.getHandle().getNumColumns(); i++) {
            data.getDefinition().setAttributeType(data.getHandle().getAttributeName(i),
                                                  AttributeType.INSENSITIVE_ATTRIBUTE);
        }
        for (String qi : qis) {
            data.getDefinition().setAttributeType(qi, Hierarchy.create(new File(prefix + qi + ".csv"),
                                                                     StandardCharsets.UTF_8, ';'));
            if (kind.equals("check")) {
                data.getDefinition().setMinimumGeneralization(qi, 0);
                data.getDefinition().setMaximumGeneralization(qi, 0);
            }
        }
        data.getDefinition().setAttributeType(sa, AttributeType.SENSITIVE_ATTRIBUTE);
        return data;
    }

    PrivacyCriterion criterion() {
        switch (model) {
            case "distinct": return new DistinctLDiversity(sa, l);
            case "entropy": return new EntropyLDiversity(sa, l);
            case "recursive": return new RecursiveCLDiversity(sa, c, l);
            default: throw new IllegalArgumentException("unknown model " + model);
        }
    }

    ARXConfiguration config() {
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(criterion());
        config.setSuppressionLimit(kind.equals("check") ? 1d : limit);
        config.setQualityModel(Metric.createLossMetric(0.5d));
        return config;
    }

    String run() throws IOException {
        Data data = load();
        List<String> seconds = new ArrayList<>();
        List<String> statsSeconds = new ArrayList<>();
        List<String> cpu = new ArrayList<>();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        String facts = "";
        for (int i = 0; i < warmup + repeat; i++) {
            data.getHandle().release();
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            ARXResult result = new ARXAnonymizer().anonymize(data, config());
            double anonymize = (System.nanoTime() - start) / 1e9;
            ARXNode optimum = result.getGlobalOptimum();
            double classStats = 0d;
            DataHandle output = optimum == null ? null : result.getOutput(optimum, false);
            StatisticsEquivalenceClasses stats = null;
            if (kind.equals("check")) {
                start = System.nanoTime();
                stats = output.getStatistics().getEquivalenceClassStatistics();
                classStats = (System.nanoTime() - start) / 1e9;
            }
            long cpuEnd = threads.getCurrentThreadCpuTime();
            facts = kind.equals("check") ? checked(stats) : optimal(output, optimum);
            if (output != null) {
                output.release();
            }
            if (i >= warmup) {
                seconds.add(fmt(anonymize));
                statsSeconds.add(fmt(classStats));
                cpu.add(fmt((cpuEnd - cpuStart) / 1e9));
            }
        }
        StringBuilder out = new StringBuilder("{\"name\": ").append(q(name)).append(", \"kind\": ").append(q(kind));
        out.append(", \"seconds\": ").append(seconds).append(", \"cpu_seconds\": ").append(cpu);
        if (kind.equals("check")) {
            out.append(", \"seconds_statistics\": ").append(statsSeconds);
        }
        return out.append(facts).append("}").toString();
    }

    static String checked(StatisticsEquivalenceClasses stats) {
        return ", \"classes\": " + stats.getNumberOfEquivalenceClasses()
               + ", \"suppressed\": " + stats.getNumberOfSuppressedRecords()
               + ", \"rows\": " + stats.getNumberOfRecordsIncludingSuppressedRecords();
    }

    String optimal(DataHandle output, ARXNode optimum) {
        if (optimum == null) {
            return ", \"levels\": null";
        }
        // The node's levels in the order of the QIs given (ARX orders them its own way).
        String[] order = optimum.getQuasiIdentifyingAttributes();
        int[] transformation = optimum.getTransformation();
        List<Integer> levels = new ArrayList<>();
        for (String qi : qis) {
            for (int i = 0; i < order.length; i++) {
                if (order[i].equals(qi)) {
                    levels.add(transformation[i]);
                }
            }
        }
        StatisticsEquivalenceClasses stats = output.getStatistics().getEquivalenceClassStatistics();
        return ", \"levels\": " + levels + ", \"deleted\": " + stats.getNumberOfSuppressedRecords()
               + ", \"classes\": " + stats.getNumberOfEquivalenceClasses()
               + ", \"loss\": " + optimum.getHighestScore().toString();
    }

    static String fmt(double seconds) {
        return String.format(Locale.ROOT, "%.4f", seconds);
    }

    static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ArxPeers SPEC (one workload a line; see the header of ArxPeers.java)");
            System.exit(2);
        }
        for (String line : Files.readAllLines(new File(args[0]).toPath(), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                System.out.println(new ArxPeers(line).run());
                System.out.flush();
            }
        }
    }
}
