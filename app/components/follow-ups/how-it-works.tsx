import { Link } from "react-router";
import { quietHoursSentence, useOrganizationTime } from "~/components/broadcasts/organization-time";

/** How follow-ups behave, plainly, with the organization's quiet hours and where to change them. */
export function HowItWorks() {
  const clock = useOrganizationTime();
  return (
    <section
      aria-labelledby="follow-ups-how"
      className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 sm:p-6"
    >
      <h2 id="follow-ups-how" className="text-base font-semibold text-slate-900">
        Cómo funcionan
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          Cuando tu equipo (una persona o la IA) escribió lo último y el cliente no responde en el
          tiempo indicado, el seguimiento le escribe una vez por cada espera, hasta el máximo de
          veces por conversación.
        </li>
        <li>
          Envía su texto mientras la ventana de 24 horas está abierta y su plantilla cuando ya se
          cerró.
        </li>
        <li>
          Un mensaje del cliente, una venta o una baja lo cancelan. Nunca escribe a quien no quiere
          recibir promociones.
        </li>
        <li>Si varios tocan a la vez, se envía el de la espera más larga.</li>
        <li>
          Uno nuevo, reactivado o con otra espera solo cuenta las esperas que terminen a partir de
          ese momento.
        </li>
        <li>
          {quietHoursSentence(clock)}
          {clock.quietStart !== clock.quietEnd &&
            " Un seguimiento que caería dentro de ese horario espera a que termine."}{" "}
          Se cambia en{" "}
          <Link
            to="/settings/organization#quiet-hours"
            className="font-medium text-emerald-800 underline hover:text-emerald-900"
          >
            Configuración &gt; Organización
          </Link>
          .
        </li>
      </ul>
      <p className="mt-3 text-xs text-slate-500">
        Gratis: enviados dentro de la ventana gratuita de 72 horas de un anuncio de clic a WhatsApp.
        Respondieron: el cliente contestó en 72 horas. No enviados: la ventana se había cerrado en
        uno solo con texto, o el cliente no acepta promociones.
      </p>
    </section>
  );
}
