/*
 * The reference tool's figures on Adult, for ldiv_db's peers tests (tests/peers/): the optimal node
 * (Flash, 5 % suppression limit, Loss metric gs = 0.5) under t-closeness with the hierarchical and the
 * ordered ground distance, basic and enhanced beta-likeness and delta-disclosure, and the risk
 * analysis of the raw table (sample risks, sample uniques, population uniqueness by Pitman, Zayatz,
 * SNB and Dankar's rule) at given sampling fractions, and the sample risks of ARX's distinct-3 release. Uses ARX's public API only; prints one JSON
 * object. Compiled against the user's ARX by `python -m bench.peers --build` (ARX_CLASSPATH).
 *
 *   java -cp "$(cat ~/.cache/ldiv_db/arx/classpath.txt):~/.cache/ldiv_db/arx/figures" ArxFigures ADULT_DIR
 */

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXPopulationModel;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.DataHandle;
import org.deidentifier.arx.DataType;
import org.deidentifier.arx.criteria.BasicBLikeness;
import org.deidentifier.arx.criteria.DDisclosurePrivacy;
import org.deidentifier.arx.criteria.DistinctLDiversity;
import org.deidentifier.arx.criteria.EnhancedBLikeness;
import org.deidentifier.arx.criteria.EqualDistanceTCloseness;
import org.deidentifier.arx.criteria.HierarchicalDistanceTCloseness;
import org.deidentifier.arx.criteria.OrderedDistanceTCloseness;
import org.deidentifier.arx.criteria.PrivacyCriterion;
import org.deidentifier.arx.metric.Metric;
import org.deidentifier.arx.risk.RiskEstimateBuilder;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness;
import org.deidentifier.arx.risk.RiskModelSampleRiskDistribution;
import org.deidentifier.arx.risk.RiskModelSampleRisks;
import org.deidentifier.arx.ARXLattice.ARXNode;

public class ArxFigures {

    static final String[] QI8 = {"sex", "age", "race", "marital-status", "education", "native-country",
                                 "workclass", "salary-class"};
    static final String[] QI7 = {"sex", "race", "marital-status", "education", "native-country",
                                 "workclass", "salary-class"};
    static final double[] FRACTIONS = {0.01, 0.1, 0.5};

    final File dir;

    ArxFigures(File dir) {
        this.dir = dir;
    }

    Hierarchy hierarchy(String column) throws IOException {
        return Hierarchy.create(new File(dir, "adult_hierarchy_" + column + ".csv"), StandardCharsets.UTF_8, ';');
    }

    /** Adult with the given QIs (their hierarchies) and SA; every other column kept as insensitive. */
    Data adult(String[] qis, String sa, boolean numericSa) throws IOException {
        Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
        for (int i = 0; i < data.getHandle().getNumColumns(); i++) {
            data.getDefinition().setAttributeType(data.getHandle().getAttributeName(i),
                                                  AttributeType.INSENSITIVE_ATTRIBUTE);
        }
        for (String qi : qis) {
            data.getDefinition().setAttributeType(qi, hierarchy(qi));
        }
        if (sa != null) {
            data.getDefinition().setAttributeType(sa, AttributeType.SENSITIVE_ATTRIBUTE);
            if (numericSa) {
                data.getDefinition().setDataType(sa, DataType.INTEGER);
            }
        }
        return data;
    }

    String node(String name, String[] qis, String sa, boolean numericSa, String params,
                PrivacyCriterion... models) throws IOException {
        Data data = adult(qis, sa, numericSa);
        ARXConfiguration config = ARXConfiguration.create();
        for (PrivacyCriterion model : models) {
            config.addPrivacyModel(model);
        }
        config.setSuppressionLimit(0.05d);
        config.setQualityModel(Metric.createLossMetric(0.5d));
        long start = System.nanoTime();
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        double seconds = (System.nanoTime() - start) / 1e9;
        ARXNode optimum = result.getGlobalOptimum();
        StringBuilder out = new StringBuilder();
        out.append(q(name)).append(": {\"qi\": ").append(list(qis)).append(", \"sa\": ").append(q(sa));
        out.append(", \"params\": ").append(params);
        if (optimum == null) {
            return out.append(", \"levels\": null}").toString();
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
        DataHandle output = result.getOutput(optimum, false);
        int deleted = 0;
        for (int row = 0; row < output.getNumRows(); row++) {
            if (output.isOutlier(row)) {
                deleted++;
            }
        }
        out.append(", \"levels\": ").append(levels);
        out.append(", \"deleted\": ").append(deleted);
        out.append(", \"loss\": ").append(optimum.getHighestScore().toString());
        out.append(", \"seconds\": ").append(String.format(Locale.ROOT, "%.3f", seconds)).append("}");
        output.release();
        return out.toString();
    }

    String risk() throws IOException {
        Data data = adult(QI8, null, false);
        DataHandle handle = data.getHandle();
        StringBuilder out = new StringBuilder("\"risk\": {\"qi\": ").append(list(QI8));
        out.append(", \"rows\": ").append(handle.getNumRows());
        RiskEstimateBuilder base = handle.getRiskEstimator(ARXPopulationModel.create(handle.getNumRows(), 0.1d));
        RiskModelSampleRisks sample = base.getSampleBasedReidentificationRisk();
        out.append(", \"prosecutor_highest\": ").append(sample.getHighestRisk());
        out.append(", \"prosecutor_average\": ").append(sample.getAverageRisk());
        out.append(", \"sample_uniques\": ").append(base.getSampleBasedUniquenessRisk().getFractionOfUniqueRecords());
        out.append(", \"classes\": ").append(base.getEquivalenceClassModel().getNumClasses());
        out.append(", \"prosecutor_above_0.2\": ").append(above(base, 0.2d));
        out.append(", \"population\": [");
        for (int i = 0; i < FRACTIONS.length; i++) {
            ARXPopulationModel population = ARXPopulationModel.create(handle.getNumRows(), FRACTIONS[i]);
            RiskModelPopulationUniqueness u = handle.getRiskEstimator(population).getPopulationBasedUniquenessRisk();
            out.append(i == 0 ? "" : ", ").append("{\"sampling_fraction\": ").append(FRACTIONS[i]);
            out.append(", \"population_size\": ").append(population.getPopulationSize());
            out.append(", \"pitman\": ").append(value(u.isAvailableEstimatePitman(), u.getFractionOfUniqueTuplesPitman()));
            out.append(", \"zayatz\": ").append(value(u.isAvailableEstimateZayatz(), u.getFractionOfUniqueTuplesZayatz()));
            out.append(", \"snb\": ").append(value(u.isAvailableEstimateSNB(), u.getFractionOfUniqueTuplesSNB()));
            out.append(", \"dankar\": ").append(value(u.isAvailableEstimateDankar(), u.getFractionOfUniqueTuplesDankar()));
            out.append(", \"dankar_model\": ").append(q(String.valueOf(u.getPopulationUniquenessModel())));
            out.append("}");
        }
        return out.append("]}").toString();
    }

    /** The share of records whose risk is strictly above the threshold, from ARX's risk histogram. */
    static double above(RiskEstimateBuilder builder, double threshold) {
        RiskModelSampleRiskDistribution distribution = builder.getSampleBasedRiskDistribution();
        double[] upper = distribution.getAvailableUpperRiskThresholds();
        int index = Arrays.binarySearch(upper, threshold);
        if (index < 0) {
            throw new IllegalArgumentException("not one of ARX's risk thresholds: " + threshold);
        }
        return 1d - distribution.getFractionOfRecordsForCumulativeRiskThresholds()[index];
    }

    /** The risk of ARX's own release: distinct-3 l-diversity, its optimum, suppressed records left out. */
    String releaseRisk() throws IOException {
        Data data = adult(QI8, "occupation", false);
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(new DistinctLDiversity("occupation", 3));
        config.setSuppressionLimit(0.05d);
        config.setQualityModel(Metric.createLossMetric(0.5d));
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        DataHandle output = result.getOutput(result.getGlobalOptimum(), false);
        RiskEstimateBuilder builder = output.getRiskEstimator(ARXPopulationModel.create(output.getNumRows(), 0.1d));
        RiskModelSampleRisks sample = builder.getSampleBasedReidentificationRisk();
        StringBuilder out = new StringBuilder("\"release_risk\": {\"model\": \"distinct-3\"");
        out.append(", \"records\": ").append(builder.getEquivalenceClassModel().getNumRecords());
        out.append(", \"classes\": ").append(builder.getEquivalenceClassModel().getNumClasses());
        out.append(", \"prosecutor_highest\": ").append(sample.getHighestRisk());
        out.append(", \"prosecutor_average\": ").append(sample.getAverageRisk());
        out.append(", \"prosecutor_above_0.2\": ").append(above(builder, 0.2d));
        out.append(", \"sample_uniques\": ").append(builder.getSampleBasedUniquenessRisk().getFractionOfUniqueRecords());
        output.release();
        return out.append("}").toString();
    }

    static String value(boolean available, double v) {
        return available && !Double.isNaN(v) && !Double.isInfinite(v) ? String.valueOf(v) : "null";
    }

    static String q(String s) {
        return s == null ? "null" : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String list(String[] items) {
        List<String> quoted = new ArrayList<>();
        for (String item : items) {
            quoted.add(q(item));
        }
        return "[" + String.join(", ", quoted) + "]";
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ArxFigures ADULT_DIR (the directory of adult.csv and its hierarchies)");
            System.exit(2);
        }
        ArxFigures f = new ArxFigures(new File(args[0]));
        String occ = "occupation";
        List<String> parts = new ArrayList<>();
        parts.add(f.node("equal_t", QI8, occ, false, "{\"t\": 0.2}", new EqualDistanceTCloseness(occ, 0.2d)));
        parts.add(f.node("distinct3_equal_t", QI8, occ, false, "{\"t\": 0.2, \"l\": 3}",
                         new DistinctLDiversity(occ, 3), new EqualDistanceTCloseness(occ, 0.2d)));
        for (double t : new double[] {0.2d, 0.15d}) {
            parts.add(f.node("hierarchical_t_" + t, QI8, occ, false, "{\"t\": " + t + "}",
                             new HierarchicalDistanceTCloseness(occ, t, f.hierarchy(occ))));
        }
        for (double t : new double[] {0.1d, 0.05d}) {
            parts.add(f.node("ordered_t_" + t, QI7, "age", true, "{\"t\": " + t + "}",
                             new OrderedDistanceTCloseness("age", t)));
        }
        for (double beta : new double[] {1d, 3d}) {
            parts.add(f.node("beta_basic_" + beta, QI8, occ, false, "{\"beta\": " + beta + "}",
                             new BasicBLikeness(occ, beta)));
            parts.add(f.node("beta_enhanced_" + beta, QI8, occ, false, "{\"beta\": " + beta + "}",
                             new EnhancedBLikeness(occ, beta)));
        }
        for (double delta : new double[] {2d, 3d}) {
            parts.add(f.node("delta_" + delta, QI8, occ, false, "{\"delta\": " + delta + "}",
                             new DDisclosurePrivacy(occ, delta)));
        }
        StringBuilder out = new StringBuilder("{\"tool\": \"ARX\", \"suppression_limit\": 0.05, ");
        out.append("\"metric\": \"Loss gs=0.5\", \"nodes\": {").append(String.join(", ", parts)).append("}, ");
        out.append(f.risk()).append(", ").append(f.releaseRisk()).append("}");
        System.out.println(out);
    }
}
