// The failure line of one area of the app store: what could not be done, in the UI's language,
// then the core's message and the fix (`FailureText`), and a button to close it. Shown by the
// screen that owns the area; nothing when the area has no failure.

import { useTranslation } from "react-i18next";
import { dispatch, selectFailure, useApp, type FailureArea } from "../store";
import { FailureText } from "./Failure";
import { Button } from "../design";

export function FailureLine({ area }: { area: FailureArea }) {
  const { t } = useTranslation();
  const failure = useApp(selectFailure(area));
  if (!failure) return null;
  return (
    <p className="bad small failure-line" role="alert" data-testid={`failure-${area}`}>
      <span className="failure-what">{t(`failures.${area}`)}</span> <FailureText failure={failure} />
      <Button type="button" variant="link" className="small" onClick={() => dispatch({ type: "recovered", area })}>
        {t("failures.close")}
      </Button>
    </p>
  );
}
