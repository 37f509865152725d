/**
 * The Overview's stylesheets, imported statically by AdminPanel. The admin page inlines its islands' CSS
 * (`inlineStylesheets: 'always'`), which covers what the island's own modules import; a stylesheet imported
 * only by a lazily loaded tab would be left to a CSS file that the build never writes.
 */
import '../../../charts/apexcharts.css';
import '../../../charts/InsightChart.css';
import './overview.css';
