/**
 * The label you printed, in sight: after a print (automatic, reprint or a booking here) the
 * scan view shows a small picture of the label that went out (labelPreview, rendered by the
 * agent from the PDF the printer was sent), so the packer sees it is the right one before
 * sticking it on.
 */
import type { JobView } from '../../shared/domain';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';

const PRINTED: ReadonlySet<JobView['state']> = new Set(['spooled', 'completed']);

export class LabelPreviewView {
  readonly element = h('figure', { class: 'label-preview', hidden: true });
  private shown: string | null = null;

  constructor(private readonly ctx: UiContext) {}

  onJob(job: JobView): void {
    if (!PRINTED.has(job.state) || job.id === this.shown) return;
    this.shown = job.id;
    void this.ctx.api.labelPreview({ jobId: job.id }).then(
      (preview) => {
        if (!preview || this.shown !== job.id) return;
        const name = job.reference ?? job.trackingId ?? job.shipmentId;
        replaceChildren(
          this.element,
          h('img', {
            src: `data:image/png;base64,${preview.pngBase64}`,
            width: preview.width,
            height: preview.height,
            alt: t('labelPreview.alt', { name }),
          }),
          h('figcaption', { class: 'muted small', 'data-verbatim': '', title: name }, name),
        );
        this.element.hidden = false;
      },
      // No picture (the service unreachable a moment): the label itself was printed all the same.
      () => undefined,
    );
  }
}
