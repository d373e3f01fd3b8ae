// Chart.js canvases as Preact components.
import { useEffect, useRef } from 'preact/hooks';
import { Chart, registerables, type ChartConfiguration } from 'chart.js';

Chart.register(...registerables);

export function ChartView({ config, testid }: { config: ChartConfiguration; testid: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, { ...config, options: { animation: false, maintainAspectRatio: false, ...config.options } });
    return () => chart.destroy();
  }, [JSON.stringify(config.data)]);
  return <div class="chart" data-testid={testid}><canvas ref={canvas} /></div>;
}
